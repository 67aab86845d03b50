// The filesystem file store (the embedded default): files under one root folder, usually `<data dir>/files`.
// A write goes to a temporary file beside its target and is renamed over it, so a crash mid-write leaves the old
// file (or none), never half of the new one.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { checkStoragePath, type FileStore, isStoragePath } from "./file-store.ts";

export class FilesystemStore implements FileStore {
  readonly #root: string;

  constructor(root: string) {
    this.#root = path.resolve(root);
  }

  #file(storagePath: string): string {
    const file = path.resolve(this.#root, checkStoragePath(storagePath));
    // checkStoragePath already forbids `..` and absolute paths; this is the second lock on the same door.
    if (!file.startsWith(`${this.#root}${path.sep}`)) throw new Error("storage path outside the store");
    return file;
  }

  async put(storagePath: string, content: Buffer): Promise<void> {
    const file = this.#file(storagePath);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${crypto.randomBytes(6).toString("hex")}.tmp`;
    await fs.writeFile(temporary, content, { mode: 0o600 });
    await fs.rename(temporary, file);
  }

  async get(storagePath: string): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(this.#file(storagePath));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }

  /** Throws unless the root folder exists (or can be made) and this process may write in it (readiness). */
  async check(): Promise<void> {
    await fs.mkdir(this.#root, { recursive: true });
    await fs.access(this.#root, fs.constants.W_OK);
  }

  async *list(): AsyncIterable<string> {
    const walk = async function* (dir: string, prefix: string): AsyncIterable<string> {
      let entries: import("node:fs").Dirent[];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
        throw error;
      }
      for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
        if (entry.isDirectory()) yield* walk(path.join(dir, entry.name), relative);
        // A write's temporary file is not a file of the store.
        else if (entry.isFile() && isStoragePath(relative) && !entry.name.endsWith(".tmp")) yield relative;
      }
    };
    yield* walk(this.#root, "");
  }

  async delete(storagePath: string): Promise<void> {
    await fs.rm(this.#file(storagePath), { force: true });
  }
}

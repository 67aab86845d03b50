// File storage (file-store.ts): one port, a filesystem store (the embedded default) and a database store (fleets).

export { chooseFileStore } from "./choose.ts";
export { DatabaseStore } from "./db-store.ts";
export { checkStoragePath, type FileStore, isStoragePath, isUnder } from "./file-store.ts";
export { FilesystemStore } from "./fs-store.ts";

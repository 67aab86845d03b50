// The language of a request: which one the texts the service writes into an answer (reasons, levels' words, rule
// titles, error messages) are written in. The list of languages and how a setting or an Accept-Language header is
// read belong to the message catalog (src/messages), which the caller passes in: this file knows only when to
// ask and what to send back (Content-Language, and Vary so that a cache keeps one answer per language).
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppError, ErrorDetail } from "../errors.ts";

export interface RequestLanguage {
  /**
   * The language of a request from the signed-in person's own setting (undefined for a key or nobody) and the
   * Accept-Language header (undefined when none was sent).
   */
  choose: (setting: string | undefined, acceptLanguage: string | undefined) => string;
  /** An error's message in a language, or undefined to keep the message it was raised with. */
  errorMessage?: (lang: string, error: AppError) => string | undefined;
  /** One of an error's details in a language, or undefined to keep it as raised. */
  errorDetail?: (lang: string, detail: ErrorDetail) => string | undefined;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The language the answer's texts are written in (set for every request by the language hooks). */
    lang: string;
  }
}

const headerOf = (request: FastifyRequest) => {
  const raw = request.headers["accept-language"];
  return Array.isArray(raw) ? raw.join(",") : raw;
};

/**
 * The hooks: one before authentication (the header alone: an error raised by the authentication itself is
 * answered in it) and one after it, when the principal may carry the person's own setting.
 */
export function languageHooks(language: RequestLanguage) {
  return {
    beforeAuth: async (request: FastifyRequest) => {
      request.lang = language.choose(undefined, headerOf(request));
    },
    afterAuth: async (request: FastifyRequest) => {
      const setting = (request.principal as { lang?: string } | undefined)?.lang;
      if (setting) request.lang = language.choose(setting, headerOf(request));
    },
    /** Content-Language and Vary on every answer carrying JSON text (the error envelope's message included). */
    onSend: async (request: FastifyRequest, reply: FastifyReply) => {
      const type = String(reply.getHeader("content-type") ?? "");
      if (!request.lang || !type.includes("json")) return;
      reply.header("content-language", request.lang);
      const vary = String(reply.getHeader("vary") ?? "");
      if (!/\baccept-language\b/i.test(vary))
        reply.header("vary", vary ? `${vary}, Accept-Language` : "Accept-Language");
    },
  };
}

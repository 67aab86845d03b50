// How the offline docs page (/v1/docs, @fastify/swagger-ui) looks: the project's name in the page's title and in its
// header, where the framework's logo was, and its own small icon. Everything is served by the page's own routes
// (its content security policy allows images from data: URLs and styles from itself): nothing is fetched elsewhere.
import type { FastifySwaggerUiOptions } from "@fastify/swagger-ui";

/** The name the page's title and header carry. */
export const DOCS_TITLE = "Vigía API";

const MARK =
  '<rect width="40" height="40" rx="8" fill="#0f766e"/>' +
  '<path d="M10 11 L20 30 L30 11" fill="none" stroke="#ffffff" stroke-width="4.5" stroke-linecap="round" stroke-linejoin="round"/>';

/** The header's logo: the mark and the name, white on the page's dark header bar. */
export const DOCS_LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="190" height="40" viewBox="0 0 190 40" role="img" aria-label="Vigía API">' +
  MARK +
  '<text x="52" y="28" font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" font-size="22" font-weight="700" fill="#ffffff">Vigía API</text>' +
  "</svg>";

const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40">${MARK}</svg>`;

/** The header bar in the logo's colour. */
const CSS = ".swagger-ui .topbar { background-color: #134e4a; }\n";

export const DOCS_PAGE: Pick<FastifySwaggerUiOptions, "theme" | "logo"> = {
  theme: {
    title: DOCS_TITLE,
    favicon: [
      { filename: "vigia.svg", rel: "icon", type: "image/svg+xml", sizes: "any", content: FAVICON_SVG },
    ],
    css: [{ filename: "vigia.css", content: CSS }],
  },
  logo: { type: "image/svg+xml", content: DOCS_LOGO_SVG },
};

// Markdown the service writes (the wallet report) rendered for reading: markdown-it with raw HTML off, so any
// HTML in the text is shown escaped, and links kept only when they are http or https (no javascript:, data:).
import MarkdownIt from "markdown-it";

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
md.validateLink = (url: string) => /^https?:\/\//i.test(url.trim());

export const renderMarkdown = (source: string): string => md.render(source);

// The part of markdown-it's API the pages use (the package ships no types of its own).
declare module "markdown-it" {
  interface Options {
    html?: boolean;
    linkify?: boolean;
    typographer?: boolean;
  }
  export default class MarkdownIt {
    constructor(options?: Options);
    render(source: string): string;
    validateLink: (url: string) => boolean;
  }
}

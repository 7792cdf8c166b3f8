// What the structure detection needs from the runtime it runs in: the WHATWG URL parser, which
// browsers and Node both provide (their declarations are in the DOM lib and @types/node, neither of
// which this tree-agnostic library sees).
declare global {
  class URL {
    constructor(url: string, base?: string | URL);
    readonly pathname: string;
  }
}

export {};

/** `text` as a regular expression that matches it literally (a name a reader typed, a route's fixed parts). */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

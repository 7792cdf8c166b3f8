/** A version number ("5.1", "1.9.0", "v2.0"): one word, dots and all; a reader who types one asks about that release. */
export const VERSION_NUMBER = /^v?\d+(?:\.\d+)+$/i;

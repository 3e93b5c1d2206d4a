// Text is measured without a DOM (the CLI has none), from Helvetica's advance widths: the SVG asks
// for Helvetica, Arial or Liberation Sans, which share these metrics, so boxes fit their labels.

/** Advance widths of ASCII 32–126 in 1/1000 em (Adobe's Helvetica AFM). */
const ASCII = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667,
  722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556,
  278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/** The font families the SVG names, in order: all metric-compatible with the table above. */
export const FONT_FAMILY = "Helvetica, Arial, 'Liberation Sans', sans-serif";

/** The width of `text` in pixels at `size` px. Other scripts are estimated: wide (CJK) 1 em, the rest 0.6 em. */
export function textWidth(text: string, size: number): number {
  let units = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 32 && code <= 126) units += ASCII[code - 32]!;
    else if (code >= 0x1100 && (code <= 0x115f || (code >= 0x2e80 && code <= 0xa4cf) || (code >= 0xac00 && code <= 0xd7a3) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0xff00 && code <= 0xff60) || code >= 0x1f300)) units += 1000;
    else units += 600;
  }
  return (units * size) / 1000;
}

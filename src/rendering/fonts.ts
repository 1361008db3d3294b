import { createRequire } from "node:module";
import * as fontkit from "fontkit";

// The TTF fonts every writer uses, from @expo-google-fonts packages (SIL Open Font License: free
// to embed). PPTX names them, PDF embeds subsets of them, the viewer serves them; text is measured
// with the same files, so a line that fits in one output fits in all three.

export const fontFamilies = ["Inter", "Merriweather", "Source Sans 3", "Poppins", "Space Grotesk"] as const;
export type FontFamily = (typeof fontFamilies)[number];
export type FontWeight = "regular" | "bold";

const packages: Record<FontFamily, { pkg: string; file: string }> = {
  Inter: { pkg: "inter", file: "Inter" },
  Merriweather: { pkg: "merriweather", file: "Merriweather" },
  "Source Sans 3": { pkg: "source-sans-3", file: "SourceSans3" },
  Poppins: { pkg: "poppins", file: "Poppins" },
  "Space Grotesk": { pkg: "space-grotesk", file: "SpaceGrotesk" },
};

const require = createRequire(import.meta.url);

export function fontPath(family: FontFamily, weight: FontWeight): string {
  const { pkg, file } = packages[family];
  const style = weight === "bold" ? "700Bold" : "400Regular";
  return require.resolve(`@expo-google-fonts/${pkg}/${style}/${file}_${style}.ttf`);
}

export type Metrics = {
  family: FontFamily;
  weight: FontWeight;
  /** Width of text at 1 pt, in points. */
  widthAt1pt(text: string): number;
  /** Ascent, descent and line gap as fractions of the font size. */
  ascent: number;
  descent: number;
  lineGap: number;
};

const cache = new Map<string, Metrics>();
const parsed = new Map<string, fontkit.Font>();

/**
 * The parsed font, shared by every render in this thread: parsing a TTF's tables costs more than
 * laying out a whole deck, and fontkit keeps glyph and layout caches on the object.
 */
export function fontkitFont(family: FontFamily, weight: FontWeight): fontkit.Font {
  const key = `${family}/${weight}`;
  let font = parsed.get(key);
  if (!font) {
    font = fontkit.openSync(fontPath(family, weight)) as fontkit.Font;
    parsed.set(key, font);
  }
  return font;
}

/** Metrics of a family and weight; loaded once, with glyph widths cached per character. */
export function fontMetrics(family: FontFamily, weight: FontWeight = "regular"): Metrics {
  const key = `${family}/${weight}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const font = fontkitFont(family, weight);
  const em = font.unitsPerEm;
  const advances = new Map<number, number>();
  const advance = (codePoint: number) => {
    let w = advances.get(codePoint);
    if (w === undefined) {
      w = font.glyphForCodePoint(codePoint).advanceWidth / em;
      advances.set(codePoint, w);
    }
    return w;
  };
  const metrics: Metrics = {
    family,
    weight,
    // Sum of advances, without kerning: kerning only narrows Latin text, so this errs on the
    // side of wrapping a little early, never of overflowing.
    widthAt1pt: (text) => {
      let width = 0;
      for (const ch of text) width += advance(ch.codePointAt(0) as number);
      return width;
    },
    ascent: font.ascent / em,
    descent: Math.abs(font.descent) / em,
    lineGap: font.lineGap / em,
  };
  cache.set(key, metrics);
  return metrics;
}

export const isFontFamily = (name: string): name is FontFamily =>
  (fontFamilies as readonly string[]).includes(name);

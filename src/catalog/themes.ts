// Built-in themes. Ids are stable slugs: clients store them, so never rename one.
// Colours are 6-digit hex without '#', the form PPTX and PDF writers take directly.

export type Theme = {
  id: string;
  name: string;
  description: string;
  colors: {
    background: string;
    surface: string;
    text: string;
    mutedText: string;
    accent: string;
    accentAlt: string;
  };
  fonts: { heading: string; body: string };
};

export const themes: readonly Theme[] = [
  {
    id: "clean",
    name: "Clean",
    description: "White background, dark text and a blue accent. Works for anything.",
    colors: {
      background: "FFFFFF",
      surface: "F3F5F9",
      text: "1B2433",
      mutedText: "5B6578",
      accent: "2563EB",
      accentAlt: "0EA5E9",
    },
    fonts: { heading: "Inter", body: "Inter" },
  },
  {
    id: "midnight",
    name: "Midnight",
    description: "Deep navy background with light text and a teal accent, for big screens.",
    colors: {
      background: "0F172A",
      surface: "1E293B",
      text: "F1F5F9",
      mutedText: "94A3B8",
      accent: "2DD4BF",
      accentAlt: "818CF8",
    },
    fonts: { heading: "Inter", body: "Inter" },
  },
  {
    id: "boardroom",
    name: "Boardroom",
    description: "Ivory paper, serif headings and a deep green accent: formal and calm.",
    colors: {
      background: "FBF8F1",
      surface: "F0EBDD",
      text: "1F2A24",
      mutedText: "5E6B63",
      accent: "1F6F4A",
      accentAlt: "B08D3C",
    },
    fonts: { heading: "Merriweather", body: "Source Sans 3" },
  },
  {
    id: "sunrise",
    name: "Sunrise",
    description: "Warm white with coral and amber accents, friendly and energetic.",
    colors: {
      background: "FFFBF7",
      surface: "FFEFE3",
      text: "2B1D16",
      mutedText: "6E5A4E",
      accent: "F2543D",
      accentAlt: "F59E0B",
    },
    fonts: { heading: "Poppins", body: "Inter" },
  },
  {
    id: "graphite",
    name: "Graphite",
    description: "Charcoal and greys with a single lime accent, for product and engineering.",
    colors: {
      background: "18181B",
      surface: "27272A",
      text: "FAFAFA",
      mutedText: "A1A1AA",
      accent: "A3E635",
      accentAlt: "22D3EE",
    },
    fonts: { heading: "Space Grotesk", body: "Inter" },
  },
  {
    id: "harbor",
    name: "Harbor",
    description: "Cool blue-grey with a navy accent: the familiar look of a consulting report.",
    colors: {
      background: "F7F9FB",
      surface: "E6ECF2",
      text: "10243E",
      mutedText: "52647A",
      accent: "1D3F6E",
      accentAlt: "D97706",
    },
    fonts: { heading: "Source Sans 3", body: "Source Sans 3" },
  },
];

export const DEFAULT_THEME_ID = "clean";

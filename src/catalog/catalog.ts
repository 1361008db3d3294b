import { type Template, templates } from "./templates.ts";
import { type Theme, themes } from "./themes.ts";

const templatesById = new Map(templates.map((t) => [t.id, t]));
const themesById = new Map(themes.map((t) => [t.id, t]));

export const listTemplates = (): readonly Template[] => templates;
export const listThemes = (): readonly Theme[] => themes;
export const findTemplate = (id: string | null | undefined) => (id ? templatesById.get(id) : undefined);
export const findTheme = (id: string | null | undefined) => (id ? themesById.get(id) : undefined);

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fontFamilies, fontPath } from "../src/rendering/fonts.ts";

// LibreOffice converts a PPTX the way a user's office suite would open it. It finds the theme
// fonts through a fontconfig file that adds the bundled TTF directories to the system's, so
// nothing is installed. Suites skip, saying why, where soffice or poppler-utils are missing.

const has = (cmd: string) => {
  try {
    execFileSync("which", [cmd], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

export const libreOfficeMissing = !has("soffice")
  ? "soffice not found (apt-get install libreoffice-impress)"
  : !has("pdfinfo")
    ? "pdfinfo not found (apt-get install poppler-utils)"
    : undefined;
if (libreOfficeMissing) console.warn(`[libreoffice] skipped: ${libreOfficeMissing}`);

/** A fontconfig file: the system's fonts plus the bundled regular and bold TTFs. */
export function bundledFontsConfig(dir: string): string {
  const dirs = fontFamilies.flatMap((f) => [fontPath(f, "regular"), fontPath(f, "bold")].map(path.dirname));
  const file = path.join(dir, "fonts.conf");
  fs.writeFileSync(
    file,
    `<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>
<include ignore_missing="yes">/etc/fonts/fonts.conf</include>
${[...new Set(dirs)].map((d) => `<dir>${d}</dir>`).join("\n")}
<cachedir>${path.join(dir, "fontcache")}</cachedir>
</fontconfig>`,
  );
  return file;
}

/** Converts a file with `soffice --headless --convert-to`, in a private profile; returns the output path. */
export function sofficeConvert(input: string, format: "pdf" | "png", outDir: string): string {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "decksmith-soffice-"));
  try {
    execFileSync(
      "soffice",
      [
        `-env:UserInstallation=file://${path.join(work, "profile")}`,
        "--headless",
        "--convert-to",
        format,
        "--outdir",
        outDir,
        input,
      ],
      { stdio: "pipe", timeout: 120_000, env: { ...process.env, FONTCONFIG_FILE: bundledFontsConfig(work) } },
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const out = path.join(outDir, `${path.basename(input, path.extname(input))}.${format}`);
  if (!fs.existsSync(out)) throw new Error(`soffice wrote no ${out}`);
  return out;
}

export const pdfPageCount = (file: string) =>
  Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [file], { encoding: "utf8" }))?.[1]);

export const pdfText = (file: string) =>
  execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });

export const pdfFonts = (file: string) => execFileSync("pdffonts", [file], { encoding: "utf8" });

// Renders the fixture deck to PNG pages three ways, for looking at and for docs/images:
// PPTX → LibreOffice → PDF → pdftoppm; PDF → pdftoppm; HTML → Chromium screenshots.
//
//   npm run pictures [-- OUT_DIR]        (default: pictures/, which git ignores)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { renderHtml, renderPdf, renderPptx } from "../src/rendering/render.ts";
import { launchBrowser } from "../test/browser.ts";
import { allLayoutsDeck } from "../test/fixtures/all-layouts-deck.ts";
import { sofficeConvert } from "../test/libreoffice.ts";

const out = path.resolve(process.argv[2] ?? "pictures");
fs.mkdirSync(out, { recursive: true });
const step = (what: string) => process.stdout.write(`${what}… `);

step("PPTX through LibreOffice");
fs.writeFileSync(path.join(out, "deck.pptx"), await renderPptx(allLayoutsDeck));
const viaLibreOffice = sofficeConvert(path.join(out, "deck.pptx"), "pdf", out);
fs.renameSync(viaLibreOffice, path.join(out, "pptx.pdf"));
execFileSync("pdftoppm", ["-png", "-r", "60", path.join(out, "pptx.pdf"), path.join(out, "pptx")]);
console.log("done");

step("PDF");
fs.writeFileSync(path.join(out, "deck.pdf"), await renderPdf(allLayoutsDeck));
execFileSync("pdftoppm", ["-png", "-r", "60", path.join(out, "deck.pdf"), path.join(out, "pdf")]);
console.log("done");

step("HTML in Chromium");
fs.writeFileSync(path.join(out, "deck.html"), renderHtml(allLayoutsDeck));
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1008, height: 600 } });
await page.goto(`file://${path.join(out, "deck.html")}`);
await page.evaluate(() => document.fonts.ready);
const slides = page.locator(".slide");
for (let i = 0; i < (await slides.count()); i++) {
  await slides.nth(i).screenshot({ path: path.join(out, `html-${String(i + 1).padStart(2, "0")}.png`) });
}
await browser.close();
console.log("done");
console.log(`pictures in ${out}`);

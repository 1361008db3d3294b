import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { chromiumMissing, launchBrowser } from "../../test/browser.ts";

describe.skipIf(chromiumMissing)("sign-in and API key pages in Chromium", () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  const email = "ada@example.com";
  const password = "analytical engine";

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const user = await t.c.users.create({ email, password, name: "Ada" });
    await t.c.workspaces.create({ name: "Engines", plan: "pro" }, user.id);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it("signs in, creates a key shown once, uses it, revokes it and signs out", async () => {
    const context = await browser.newContext();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    const page = await context.newPage();

    await page.goto(`${base}/account/api-keys`);
    expect(new URL(page.url()).pathname).toBe("/signin");

    await page.fill("#email", email);
    await page.fill("#password", "wrong password");
    await page.click("button[type=submit]");
    await expect.poll(() => page.textContent("[role=alert]")).toContain("Wrong email or password");

    await page.fill("#password", password);
    await page.click("button[type=submit]");
    await page.waitForURL(`${base}/account/api-keys`);
    expect(await page.textContent("#keys")).toContain("No keys yet");

    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === "ds_session");
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe("Lax");

    await page.fill("#key-name", "CRM sync");
    await page.click("form[action='/account/api-keys'] button[type=submit]");
    const key = (await page.textContent("#new-key-value"))?.trim() ?? "";
    expect(key).toMatch(/^ak_[0-9A-Za-z]{43}$/);
    await page.click("#copy-key");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    const api = await fetch(`${base}/v1/workspaces`, { headers: { authorization: `Bearer ${key}` } });
    expect(api.status).toBe(200);
    expect((await api.json())[0].name).toBe("Engines");

    // Shown once: a reload lists the key by prefix only, with its last use.
    await page.goto(`${base}/account/api-keys`);
    expect(await page.locator("#new-key-value").count()).toBe(0);
    const row = page.locator("#keys tbody tr").first();
    expect(await row.textContent()).toContain("CRM sync");
    expect(await row.textContent()).toContain(key.slice(0, 10));
    expect(await row.textContent()).not.toContain(key);
    expect(await row.textContent()).not.toContain("never");

    page.once("dialog", (dialog) => dialog.accept());
    await row.locator("button.danger").click();
    await page.waitForURL(`${base}/account/api-keys`);
    expect(await page.locator("#keys tbody tr").first().textContent()).toContain("revoked");
    const refused = await fetch(`${base}/v1/workspaces`, { headers: { authorization: `Bearer ${key}` } });
    expect(refused.status).toBe(401);

    await page.click("text=Sign out");
    await page.waitForURL(`${base}/signin`);
    await page.goto(`${base}/account/api-keys`);
    expect(new URL(page.url()).pathname).toBe("/signin");
    await context.close();
  });

  it("refuses a sign-in form posted without its CSRF token", async () => {
    const res = await fetch(`${base}/signin`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password }).toString(),
      redirect: "manual",
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie") ?? "").not.toContain("ds_session");
  });

  it("refuses key creation without the session's CSRF token", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/signin`);
    await page.fill("#email", email);
    await page.fill("#password", password);
    await page.click("button[type=submit]");
    await page.waitForURL(`${base}/account/api-keys`);
    // The browser context's request client sends the session cookie, as a forged form would.
    const res = await context.request.post(`${base}/account/api-keys`, {
      form: { name: "sneaky", _csrf: "forged" },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(403);
    expect((await t.c.apiKeys.list((await t.c.users.getByEmail(email)).id)).map((k) => k.name)).not.toContain(
      "sneaky",
    );
    await context.close();
  });

  it("never redirects off-site after sign-in", async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/signin?next=${encodeURIComponent("//evil.example.com/x")}`);
    await page.fill("#email", email);
    await page.fill("#password", password);
    await page.click("button[type=submit]");
    await page.waitForURL(`${base}/account/api-keys`);
    await page.close();
  });
});

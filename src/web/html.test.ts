import { describe, expect, it } from "vitest";
import { html } from "./html.ts";

describe("html", () => {
  it("escapes interpolated values and keeps nested templates as markup", () => {
    const name = `<script>alert("x")</script>&'`;
    const out = html`<p title="${name}">${name} ${html`<b>${"ok"}</b>`} ${[html`<i>1</i>`, "<2>"]}</p>`;
    expect(out.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39; <b>ok</b> <i>1</i>&lt;2&gt;</p>',
    );
  });

  it("renders nothing for null, undefined and false", () => {
    expect(html`[${null}${undefined}${false}]`.value).toBe("[]");
  });
});

import { describe, expect, it } from "vitest";
import { packageSamples, snippetWithFullKey } from "./snippet";

const masked = "tala_pk_abcd…wxyz";
const full = `tala_pk_abcd${"Q".repeat(35)}wxyz`;
const snippet = `<script src="https://tala.test/widget.js" data-assistant-key="${masked}" data-host="https://tala.test" async></script>`;

describe("snippetWithFullKey (spec section 7)", () => {
  it("replaces the masked key with the full key when it is known", () => {
    expect(snippetWithFullKey(snippet, masked, full)).toBe(snippet.replace(masked, full));
    expect(snippetWithFullKey(`${masked} ${masked}`, masked, full)).toBe(`${full} ${full}`);
  });
  it("leaves the snippet alone without a full key, or when it already holds the full key", () => {
    expect(snippetWithFullKey(snippet, masked, undefined)).toBe(snippet);
    expect(snippetWithFullKey(snippet, "", full)).toBe(snippet);
    const withFull = snippet.replace(masked, full);
    expect(snippetWithFullKey(withFull, masked, full)).toBe(withFull);
  });
  it("treats the key as text, not a pattern", () => {
    expect(snippetWithFullKey("key=a.b$&", "a.b$&", "FULL")).toBe("key=FULL");
  });
});

describe("packageSamples", () => {
  it("says what the snippet says, for npm and React", () => {
    const samples = packageSamples(snippet.replace(masked, full))!;
    expect(samples.npm).toContain(`init({ apiKey: "${full}", host: "https://tala.test" });`);
    expect(samples.npm.split("\n")[0]).toBe("npm install @tala/widget");
    expect(samples.react).toContain(`<TalaWidget apiKey="${full}" host="https://tala.test" />`);
    expect(samples.react).toContain('from "@tala/widget/react"');
  });
  it("is null for a snippet without a key or a host", () => {
    expect(packageSamples("<script></script>")).toBeNull();
    expect(packageSamples(`<script data-assistant-key="${masked}"></script>`)).toBeNull();
  });
});

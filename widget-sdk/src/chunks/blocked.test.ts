import { h, type VNode } from "preact";
import { describe, expect, it } from "vitest";
import { reachable } from "./blocked";

/** Each part as text, a link as `[words](href)`. */
const show = (parts: unknown[]) =>
  parts
    .map((p) => (typeof p === "string" ? p : `[${String((p as VNode<{ children: string }>).props.children)}](${String((p as VNode<{ href: string }>).props.href)})`))
    .join("");

describe("the contact line's e-mail addresses and phone numbers (blocked chunk)", () => {
  it.each([
    ["Write to help@shop.example or call +33 1 23 45 67 89", "Write to [help@shop.example](mailto:help@shop.example) or call [+33 1 23 45 67 89](tel:+33123456789)"],
    ["Email help@example.com or call 0161 496 0000.", "Email [help@example.com](mailto:help@example.com) or call [0161 496 0000](tel:01614960000)."],
    ["Appelez le (555) 010-9999", "Appelez le [(555) 010-9999](tel:5550109999)"],
    ["راسلنا على help@shop.example", "راسلنا على [help@shop.example](mailto:help@shop.example)"],
  ])("%s", (text, expected) => {
    expect(show(reachable(h, text))).toBe(expected);
  });

  it.each([
    ["open 9-17, Monday to Friday"],
    ["since 2026"],
    ["order 12 345"],
    ["a number too long to be a phone: 1234567890123456789"],
    ["not an address: help@localhost"],
  ])("leaves %s as text", (text) => {
    expect(show(reachable(h, text))).toBe(text);
  });

  it("a phone number is never cut across two lines; an address may wrap", () => {
    const links = reachable(h, "help@shop.example or +33 1 23 45 67 89").filter((p): p is VNode<{ style?: object }> => typeof p === "object" && p !== null);
    expect(links.map((a) => a.props.style)).toEqual([undefined, { whiteSpace: "nowrap" }]);
  });

  it("builds each address from the matched characters only", () => {
    const parts = reachable(h, 'x"><script>@a.b javascript:alert(1)@evil.example');
    const hrefs = parts.filter((p): p is VNode<{ href: string }> => typeof p === "object" && p !== null).map((p) => p.props.href);
    for (const href of hrefs) expect(href).toMatch(/^mailto:[\w.+-]+@[\w.-]+$/);
  });
});

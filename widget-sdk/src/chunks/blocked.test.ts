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
    // Hours or a note in brackets after a number are not part of it.
    ["Call 06 12 34 56 78 (10h-18h)", "Call [06 12 34 56 78](tel:0612345678) (10h-18h)"],
    ["Tel. 0161 496 0000 (24/7)", "Tel. [0161 496 0000](tel:01614960000) (24/7)"],
    ["Phone: +1 (555) 010-9999 (10-18h)", "Phone: [+1 (555) 010-9999](tel:+15550109999) (10-18h)"],
    ["Call 01 23 45 67 89 (9.00-18.00)", "Call [01 23 45 67 89](tel:0123456789) (9.00-18.00)"],
    // Two numbers side by side are two links.
    ["Call 0161 496 0000 - 0161 496 0001", "Call [0161 496 0000](tel:01614960000) - [0161 496 0001](tel:01614960001)"],
    ["Appelez le 06.12.34.56.78", "Appelez le [06.12.34.56.78](tel:0612345678)"],
    ["Appelez le 06\u00a012\u00a034\u00a056\u00a078", "Appelez le [06\u00a012\u00a034\u00a056\u00a078](tel:0612345678)"],
  ])("%s", (text, expected) => {
    expect(show(reachable(h, text))).toBe(expected);
  });

  it.each([
    ["open 9-17, Monday to Friday"],
    ["since 2026"],
    ["order 12 345"],
    ["a number too long to be a phone: 1234567890123456789"],
    ["not an address: help@localhost"],
    ["Call us 09.00-18.00"],
    ["Closed 24.12.2025 and 2025-12-31, and on 05.06.2026"],
    ["Order ref 2024-001234"],
    ["VAT FR 12 345 678 901, SIRET 123 456 789 00012"],
    ["code A0612345678B"],
  ])("leaves %s as text", (text) => {
    expect(show(reachable(h, text))).toBe(text);
  });

  it("a phone number is never cut across two lines; an address may wrap", () => {
    const links = reachable(h, "help@shop.example or +33 1 23 45 67 89").filter((p): p is VNode<{ style?: object }> => typeof p === "object" && p !== null);
    expect(links.map((a) => a.props.style)).toEqual([undefined, { whiteSpace: "nowrap" }]);
  });

  it("builds each address from the matched characters only", () => {
    const parts = reachable(h, 'x"><script>a"b@evil.example javascript:alert(1)@evil.example <img src=x>+33 1 23 45 67 89"');
    const hrefs = parts.filter((p): p is VNode<{ href: string }> => typeof p === "object" && p !== null).map((p) => p.props.href);
    expect(hrefs).toEqual(["mailto:b@evil.example", "tel:+33123456789"]);
  });

  it("a phone number reads left to right in a right-to-left line", () => {
    const link = reachable(h, "اتصل بنا على +33 1 23 45 67 89").find((p): p is VNode<{ dir?: string; href: string }> => typeof p === "object" && p !== null);
    expect(link?.props).toMatchObject({ dir: "ltr", href: "tel:+33123456789" });
  });
});

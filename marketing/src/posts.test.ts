import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixedBlogPosts } from "../../contract";
import { canonicalPathOf, htmlFileOf, parsePost, pathsOf, sortPosts, type BlogPost } from "./posts";

const source = (fields: Record<string, string>, body = "Some text.") =>
  `---\n${Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n")}\n---\n${body}\n`;
const valid = {
  id: "7",
  title: "A post",
  description: "A description that is long enough to be shown in search results.",
  date: "2026-08-11",
  lang: "en",
};

describe("parsePost", () => {
  it("reads a post from <id>-<slug>.md", () => {
    const post = parsePost("7-a-post.md", source(valid));
    expect(post).toMatchObject({ id: 7, slug: "a-post", title: "A post", lang: "en", date: "2026-08-11" });
    expect(post.markdown).toBe("Some text.\n");
  });

  it("names the file and the field when something is wrong", () => {
    expect(() => parsePost("post.md", source(valid))).toThrow(/<id>-<slug>\.md/);
    expect(() => parsePost("8-a-post.md", source(valid))).toThrow(/id 7 differs/);
    expect(() => parsePost("7-a-post.md", source({ ...valid, lang: "de" }))).toThrow(/7-a-post\.md: front matter lang/);
    expect(() => parsePost("7-a-post.md", source({ ...valid, date: "11/08/2026" }))).toThrow(/YYYY-MM-DD/);
    expect(() => parsePost("7-a-post.md", source({ ...valid, description: "Too short" }))).toThrow(/description/);
    expect(() => parsePost("7-a-post.md", source({ ...valid, author: "x" }))).toThrow(/author|Unrecognized/);
    expect(() => parsePost("7-a-post.md", source(valid, ""))).toThrow(/no body/);
  });
});

describe("sortPosts", () => {
  const post = (id: number, date: string, translation?: number) =>
    ({ id, date, translation, slug: "x", title: "t", description: "d", lang: "en", markdown: "m" }) as BlogPost;

  it("puts the newest first, then the higher id", () => {
    expect(sortPosts([post(1, "2026-01-01"), post(3, "2026-02-01"), post(2, "2026-02-01")]).map((p) => p.id)).toEqual([3, 2, 1]);
  });

  it("refuses duplicate ids and translations that do not exist", () => {
    expect(() => sortPosts([post(1, "2026-01-01"), post(1, "2026-01-02")])).toThrow(/two posts have id 1/);
    expect(() => sortPosts([post(1, "2026-01-01", 9)])).toThrow(/translation 9/);
  });
});

describe("paths", () => {
  it("points fixed-id posts at their fixed route, others at /blog/{id}", () => {
    expect(canonicalPathOf(3)).toBe("/ai-morocco");
    expect(canonicalPathOf(6)).toBe("/ia");
    expect(canonicalPathOf(7)).toBe("/blog/7");
    expect(pathsOf(5)).toEqual(["/blog/5", "/ia-maroc"]);
    expect(pathsOf(1)).toEqual(["/blog/1"]);
  });

  it("maps a path to the file wrangler serves at it", () => {
    expect(htmlFileOf("/")).toBe("index.html");
    expect(htmlFileOf("/blog")).toBe("blog.html");
    expect(htmlFileOf("/blog/3")).toBe("blog/3.html");
  });
});

describe("the blog content", () => {
  const dir = join(__dirname, "../content/blog");
  const posts = sortPosts(readdirSync(dir).filter((f) => f.endsWith(".md")).map((f) => parsePost(f, readFileSync(join(dir, f), "utf8"))));

  it("has at least six posts, all valid", () => {
    expect(posts.length).toBeGreaterThanOrEqual(6);
  });

  it("has the fixed-id posts in the language their path says (/ai-morocco, /ai English; /ia-maroc, /ia French)", () => {
    const lang = (id: number) => posts.find((p) => p.id === id)?.lang;
    expect(lang(fixedBlogPosts["/ai-morocco"])).toBe("en");
    expect(lang(fixedBlogPosts["/ai"])).toBe("en");
    expect(lang(fixedBlogPosts["/ia-maroc"])).toBe("fr");
    expect(lang(fixedBlogPosts["/ia"])).toBe("fr");
  });

  it("pairs translations both ways", () => {
    for (const p of posts.filter((p) => p.translation !== undefined)) {
      expect(posts.find((q) => q.id === p.translation)?.translation).toBe(p.id);
    }
  });
});

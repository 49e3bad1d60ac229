import { z } from "zod";
import { fixedBlogPosts, publicRoutes } from "../../contract";
import { parseFrontMatter } from "./front-matter";

/** A blog post: marketing/content/blog/<id>-<slug>.md. */
export interface BlogPost {
  id: number;
  slug: string;
  title: string;
  description: string;
  /** YYYY-MM-DD. */
  date: string;
  lang: "en" | "fr";
  /** Id of the same post in the other language, when there is one. */
  translation?: number;
  /** Markdown, without the front matter. */
  markdown: string;
}

const FILE_NAME = /^(\d+)-([a-z0-9]+(?:-[a-z0-9]+)*)\.md$/;

const frontMatterSchema = z
  .object({
    id: z.string().regex(/^\d+$/, "id must be a whole number"),
    title: z.string().min(1).max(110),
    description: z.string().min(50, "description: write at least 50 characters for search results").max(200),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "date must be YYYY-MM-DD"),
    lang: z.enum(["en", "fr"]),
    translation: z.string().regex(/^\d+$/).optional(),
  })
  .strict();

/** Parses and checks one post file; the error names the file and the field. */
export function parsePost(fileName: string, source: string): BlogPost {
  const name = FILE_NAME.exec(fileName);
  if (!name) throw new Error(`${fileName}: blog files are named <id>-<slug>.md (lower-case slug)`);
  const { data, body } = parseFrontMatter(source);
  const parsed = frontMatterSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${fileName}: front matter ${issue.path.join(".") || ""}: ${issue.message}`);
  }
  const fm = parsed.data;
  if (fm.id !== name[1]) throw new Error(`${fileName}: front matter id ${fm.id} differs from the file name`);
  if (Number.isNaN(Date.parse(`${fm.date}T00:00:00Z`))) throw new Error(`${fileName}: date ${fm.date} is not a real date`);
  if (!body.trim()) throw new Error(`${fileName}: the post has no body`);
  return {
    id: Number(fm.id),
    slug: name[2]!,
    title: fm.title,
    description: fm.description,
    date: fm.date,
    lang: fm.lang,
    ...(fm.translation ? { translation: Number(fm.translation) } : {}),
    markdown: body,
  };
}

/** Newest first; same day: higher id first. Throws on duplicate ids or a dangling translation. */
export function sortPosts(posts: readonly BlogPost[]): BlogPost[] {
  const ids = new Set<number>();
  for (const p of posts) {
    if (ids.has(p.id)) throw new Error(`blog: two posts have id ${p.id}`);
    ids.add(p.id);
  }
  for (const p of posts) {
    if (p.translation !== undefined && !ids.has(p.translation)) {
      throw new Error(`blog: post ${p.id} names translation ${p.translation}, which does not exist`);
    }
  }
  return [...posts].sort((a, b) => b.date.localeCompare(a.date) || b.id - a.id);
}

/** The fixed route of a post (e.g. /ai-morocco for id 3), if the spec gives it one. */
export function fixedPathOf(id: number): string | undefined {
  return Object.entries(fixedBlogPosts).find(([, postId]) => postId === id)?.[0];
}

/** Where a post's canonical URL points: its fixed route when it has one, else /blog/{id}. */
export function canonicalPathOf(id: number): string {
  return fixedPathOf(id) ?? publicRoutes.blogPost(id);
}

/** Every path that shows post `id`: /blog/{id}, plus its fixed route. */
export function pathsOf(id: number): string[] {
  const fixed = fixedPathOf(id);
  return fixed ? [publicRoutes.blogPost(id), fixed] : [publicRoutes.blogPost(id)];
}

/** A site path → the file under dist/public that wrangler's auto-trailing-slash serves at it. */
export function htmlFileOf(path: string): string {
  return path === "/" ? "index.html" : `${path.replace(/^\//, "")}.html`;
}

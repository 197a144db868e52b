import type { Core, UID } from '@strapi/strapi';

/** "Hello, Wörld!" → "hello-world": lowercase ASCII words joined by dashes. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 180);
}

/** A slug made from `text` that no row of `uid` uses yet: the base, else base-2, base-3, ... */
export async function freeSlug(strapi: Core.Strapi, uid: UID.ContentType, text: string, fallback: string): Promise<string> {
  const base = slugify(text) || fallback;
  const rows = await strapi.db.query(uid).findMany({ where: { slug: { $startsWith: base } }, select: ['slug'] });
  const used = new Set(rows.map((row: { slug: string | null }) => row.slug));
  if (!used.has(base)) return base;
  for (let n = 2; ; n += 1) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

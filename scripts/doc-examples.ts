// Copies each example file into the docs where a page shows it: the fenced block after `<!-- example: PATH -->` becomes
// the file's text (`node --import tsx scripts/doc-examples.ts`; `--check` only lists the blocks that differ, exit 1 if any).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const PAGES = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
/** `<!-- example: PATH -->`, then a fenced block: the block shows that file whole. */
export const MARKER = /^<!-- example: (\S+) -->\n```(\w*)\n([\s\S]*?)^```$/gm;

/** The page with every marked block replaced by its file's text; the blocks that differed. */
export function withExamples(page: string): { text: string; next: string; stale: string[] } {
  const text = readFileSync(join(root, page), 'utf8');
  const stale: string[] = [];
  const next = text.replace(MARKER, (_, file: string, lang: string, shown: string) => {
    const source = readFileSync(join(root, file), 'utf8').replace(/\n*$/, '\n');
    if (shown !== source) stale.push(file);
    return `<!-- example: ${file} -->\n\`\`\`${lang}\n${source}\`\`\``;
  });
  return { text, next, stale };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const page of PAGES) {
    const r = withExamples(page);
    stale += r.stale.length;
    for (const file of r.stale) console.log(`${page}: the block of ${file} ${check ? 'differs' : 'updated'}`);
    if (!check && r.next !== r.text) writeFileSync(join(root, page), r.next);
  }
  console.log(`${stale} stale example block(s) in ${PAGES.length} pages`);
  if (check && stale > 0) process.exit(1);
}

// The navigation's sections: those of the same title merged into one (a desk's
// HR links and the HR resources' lists), links in order (a desk's first, as it
// comes first) and each href once; the sections in the order a person looks for
// them (the areas, then Settings and Developers), any other after them.
import type { Section } from './section.js';

const ORDER = ['CRM', 'HR', 'Finance', 'Settings', 'Developers'];

const rank = (title: string) => (ORDER.includes(title) ? ORDER.indexOf(title) : ORDER.length);

export function mergeSections(sections: readonly Section[]): Section[] {
  const merged = new Map<string, Section>();
  for (const section of sections) {
    const known = merged.get(section.title);
    if (!known) {
      merged.set(section.title, { ...section, links: [...section.links], routes: [...section.routes] });
      continue;
    }
    for (const link of section.links) {
      if (!known.links.some((other) => other.href === link.href)) known.links.push(link);
    }
    known.routes.push(...section.routes);
  }
  // A stable sort: sections of one rank keep the order they came in.
  return [...merged.values()].sort((a, b) => rank(a.title) - rank(b.title));
}

// The navigation's sections: those of the same title merged into one (a desk's
// HR links and the HR resources' lists), in the order the sections come, links
// in order too (a desk's first) and each href once.
import type { Section } from './section.js';

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
  return [...merged.values()];
}

// The Developers section of the navigation and its pages.
import type { Section } from '../../section.js';

export const developersSection: Section = {
  title: 'Developers',
  links: [],
  routes: [],
};

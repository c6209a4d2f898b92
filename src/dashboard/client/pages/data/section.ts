// The Data section of the navigation and its pages.
import type { Section } from '../../section.js';

export const dataSection: Section = {
  title: 'Data',
  links: [],
  routes: [],
};

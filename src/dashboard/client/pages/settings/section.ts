// The Settings section of the navigation and its pages.
import type { Section } from '../../section.js';

export const settingsSection: Section = {
  title: 'Settings',
  links: [],
  routes: [],
};

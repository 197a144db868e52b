// Ambient declarations for the admin build; the design system and Strapi ship their own types.

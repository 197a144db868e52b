/** esbuild bundles imported CSS into the portal's stylesheet. */
declare module '*.css';

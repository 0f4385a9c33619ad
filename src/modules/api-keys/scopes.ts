// Moved to src/auth/scopes.ts (issue 32); this re-export goes once no file imports it from here.
export * from '../../auth/scopes.js';

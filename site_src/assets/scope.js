// The theme's storage helpers, for the lean pages (overrides/lean-layout.html: 20,000 paper pages),
// which load them from this file rather than inline (issue 43). The same names and behaviour as
// mkdocs-material's inline script in every page's head (partials/javascripts/base.html):
// - __md_scope: the site's root (this file is <root>/assets/scope.js), the prefix of the keys under
//   which the theme keeps the reader's choices (palette, ...) in localStorage;
// - __md_get(key, storage, scope) and __md_set(key, value, storage, scope): read and write one, as JSON;
// - __md_hash(text): the theme's hash of a string.
var __md_scope = new URL("..", document.currentScript.src);

function __md_hash(text) {
  return Array.from(text).reduce(function (hash, c) { return (hash << 5) - hash + c.charCodeAt(0); }, 0);
}

function __md_get(key, storage, scope) {
  storage = storage === undefined ? localStorage : storage;
  scope = scope === undefined ? __md_scope : scope;
  return JSON.parse(storage.getItem(scope.pathname + "." + key));
}

function __md_set(key, value, storage, scope) {
  storage = storage === undefined ? localStorage : storage;
  scope = scope === undefined ? __md_scope : scope;
  try {
    storage.setItem(scope.pathname + "." + key, JSON.stringify(value));
  } catch (error) {
    // Storage full or forbidden (private mode): the choice lasts for this page only, as in the theme.
  }
}

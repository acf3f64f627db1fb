// ESLint for the page's JavaScript (src/mazekit/drawing/page): plain browser scripts that the
// renderer inlines one after another, each adding one part to globalThis.mazekit.
const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  { ignores: [".venv/**", "node_modules/**", "build/**", "docs/**"] },
  js.configs.recommended,
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "commonjs", globals: { ...globals.node } },
  },
  {
    files: ["src/mazekit/drawing/page/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.browser },
    },
    rules: {
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: "error",
      curly: ["error", "multi-line"],
      "no-implicit-globals": "error",
      "no-shadow": "error",
      "no-unused-vars": ["error", { args: "after-used" }],
      strict: ["error", "global"],
    },
  },
];

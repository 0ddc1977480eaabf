// ESLint for /play, the reference browser client (ES modules, no bundler).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", ".venv/", "build/", "test-output/"] },
  {
    files: ["src/domino_api/play/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: globals.browser,
    },
    rules: {
      ...js.configs.recommended.rules,
      eqeqeq: ["error", "smart"],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  {
    files: ["eslint.config.js", "tools/*.mjs"],
    languageOptions: { sourceType: "module", globals: globals.node },
    rules: js.configs.recommended.rules,
  },
];

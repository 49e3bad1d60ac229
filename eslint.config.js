import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";

export default tseslint.config(
  { ignores: ["dist/", "widget-sdk/dist/", ".wrangler/", "node_modules/", "test-results/", "playwright-report/", "migrations/meta/", "bench/results/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["dashboard/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
    },
  },
  {
    // widget-core.js compiles its JSX to preact's h() (classic runtime, see widget-sdk/src/core/view.tsx).
    files: ["widget-sdk/src/core/**/*.tsx"],
    languageOptions: { parserOptions: { jsxPragma: "h", jsxFragmentName: "Fragment" } },
  },
  {
    files: ["**/*.{mjs,js}"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly", setTimeout: "readonly", clearTimeout: "readonly", fetch: "readonly" } },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-namespace": "off",
      // The contract is the one source of messages: the dashboard never writes console output (spec section 8).
      "no-console": "off",
    },
  },
);

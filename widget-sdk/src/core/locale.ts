import { widgetLocales, rtlWidgetLocales, type WidgetLocale } from "../../../contract/widget-strings";

/**
 * The widget's language: the first candidate whose language is one the widget speaks (en, fr, ar),
 * else English. Candidates in order: the host's choice (setLocale, data-locale, init's locale),
 * the page's `<html lang>`, then the browser's languages.
 */
export function pickLocale(...candidates: (string | null | undefined | readonly string[])[]): WidgetLocale {
  for (const c of candidates.flat()) {
    const lang = typeof c === "string" ? c.trim().toLowerCase().split(/[-_]/)[0] : "";
    if ((widgetLocales as readonly string[]).includes(lang!)) return lang as WidgetLocale;
  }
  return "en";
}

/** The page's own language signals, for pickLocale after the host's choice. */
export function pageLocales(): (string | readonly string[] | undefined)[] {
  return [document.documentElement.lang, navigator.languages, navigator.language];
}

export const isRtl = (locale: WidgetLocale) => rtlWidgetLocales.includes(locale);

import { normaliseForIntent, type HandoffLanguage } from "./handoff-intent";

/**
 * Whether a visitor's message asks to be contacted (en, fr, ar), without a model call: the turn
 * then replies `leadMessages.offerReply[language]` with the lead form under it when the owner's
 * form is on and shows "when asked" (hub-visitor-turn.ts; a plain request for a person goes to
 * the handoff offer first, handoff-intent.ts). Pure. Only requests aimed at the visitor match: a
 * verb of contacting with "me" ("call me back", "please email me", "rappelez-moi", "اتصلوا بي"),
 * a wish to be contacted ("I'd like to be contacted", "je voudrais être recontacté", "أريد أن
 * يتواصل معي أحد"), or leaving one's details. A question about how to reach the business ("how
 * do I contact support?", "comment vous contacter ?", "كيف أتواصل معكم؟") does not: the model
 * answers it (with the owner's contact line). Unit-tested in contact-intent.test.ts.
 */

/** Longer messages are questions of their own: the model answers them. */
const MAX_CHARS = 300;

const en: RegExp[] = [
  // "call me back", "contact me", "please email me", "can someone text me"
  /\b(?:contact|call|email|e mail|mail|text|phone|ring|reach|message) me\b/,
  // "get in touch with me", "get back to me", "reach out to me"
  /\b(?:get|be|keep) (?:back )?in touch with me\b/,
  /\b(?:get back|reach out|write back) to me\b/,
  // "I'd like to be contacted", "I want to be called back", "can I get a call back"
  /\b(?:be|get|being) (?:contacted|called back|called|emailed|e mailed|reached|phoned)\b/,
  /\b(?:a|want|need|like|request|requesting|get|have) (?:a )?(?:callback|call back)\b/,
  // "send me an email", "drop me a line"
  /\b(?:send|drop|shoot|give) me an? (?:email|e mail|mail|message|text|call|line|ring)\b/,
  // "I want to leave my details", "can I leave my number"
  /\bleave (?:you )?my (?:details|number|phone number|phone|email|e mail|email address|contact details|contact info|contact information|contact|info)\b/,
];

const fr: RegExp[] = [
  // "je voudrais être recontacté", "j'aimerais être rappelée", "me faire rappeler"
  /\b(?:etre|me faire|se faire) (?:re)?(?:contacte|contactee|appele|appelee|rappele|rappelee)s?\b/,
  /\b(?:me faire|se faire) (?:rappeler|recontacter|contacter)\b/,
  // "rappelez-moi", "contactez-moi", "écrivez-moi"
  /\b(?:rappelez|rappelle|rappele|recontactez|recontacte|contactez|contacte|appelez|ecrivez|ecris|joignez|telephonez) moi\b/,
  // "pouvez-vous me rappeler", "quelqu'un peut me contacter", "m'écrire", "m'envoyer un mail"
  /\bme (?:rappeler|recontacter|contacter|telephoner|joindre)\b/,
  /\bm (?:appeler|ecrire|envoyer un (?:mail|email|e mail|courriel|message|sms))\b/,
  // "envoyez-moi un e-mail", "qu'on me rappelle"
  /\b(?:envoyez|envoie|envoyer) moi un (?:mail|email|e mail|courriel|message|sms)\b/,
  /\bqu on me (?:rappelle|recontacte|contacte|appelle)\b/,
  // "je veux laisser mes coordonnées"
  /\blaisser? (?:vous )?mes coordonnees\b/,
];

const AR_ME = "(?:بي|معي|علي|لي)(?:\\s|$)";

const ar: RegExp[] = [
  // "اتصلوا بي", "أريد أن يتواصل معي أحد", "عاودوا الاتصال بي", "راسلوا لي"
  new RegExp(`(?:اتصل|اتصلوا|اتصلو|يتصل|تتصل|الاتصال|تواصل|تواصلوا|تواصلو|يتواصل|تتواصل|التواصل|راسل|راسلوا|ارسلوا|ارسل|كلموا)\\s+${AR_ME}`),
  // "اتصلوا علي", "كلموني", "راسلوني", "ردوا علي"
  /(?:اتصلوني|راسلوني|كلموني|تواصلوني|كلمني|اتصلني|راسلني)/,
  // "أريد ترك بياناتي", "اترك رقمي"
  /(?:ترك|اترك|اسيب)\s+(?:بياناتي|رقمي|ايميلي|بريدي|معلوماتي)/,
];

/**
 * The language of a request to be contacted in `text`, or null (not one, or longer than a plain
 * request). Never throws; bounded work (the text is cut first).
 */
export function contactIntent(text: string): HandoffLanguage | null {
  if (text.length > MAX_CHARS) return null;
  const plain = normaliseForIntent(text);
  if (!plain) return null;
  if (/[\u0600-\u06ff]/.test(plain)) return ar.some((re) => re.test(plain)) ? "ar" : null;
  if (en.some((re) => re.test(plain))) return "en";
  if (fr.some((re) => re.test(plain))) return "fr";
  return null;
}

/**
 * Whether a visitor's message plainly asks for a person (en, fr, ar), without a model call: the
 * turn then replies `handoffMessages.offerReply[language]` when the owner offers "Talk to a
 * person" (hub-visitor-turn.ts). Pure. Only plain requests match: a verb of talking or wanting
 * aimed at a person ("talk to a human", "parler à un conseiller", "أريد التحدث مع موظف"), or the
 * request alone ("agent please"); a sentence that merely mentions a person ("I'm a person who
 * needs help with returns") does not. Unit-tested in handoff-intent.test.ts.
 */

export type HandoffLanguage = "en" | "fr" | "ar";

/** Longer messages are questions of their own: the model answers them (and the visitor can still press the action). */
const MAX_CHARS = 300;

/** Lower case, accents and Arabic diacritics/tatweel dropped, Arabic alef forms unified, punctuation to spaces. */
export function normaliseForIntent(text: string): string {
  return text
    .slice(0, MAX_CHARS * 2)
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[\u064b-\u065f\u0670\u0640]/g, "")
    .replace(/[\u0622\u0623\u0625]/g, "\u0627")
    .replace(/[’'`´]/g, " ")
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

const EN_PERSON = "(?:real |live |actual |human |customer service |customer support |support |sales )?(?:person|human|humans|people|agent|someone|somebody|representative|rep|operator|staff|employee|team member|member of staff|manager)";
const EN_ARTICLE = "(?:a |an |the |some |your |one of your |to )?";

const en: RegExp[] = [
  // "talk to a person", "can I speak with a real human", "chat with someone from your team"
  new RegExp(`\\b(?:talk|speak|chat|speaking|talking|chatting) (?:to|with) ${EN_ARTICLE}${EN_PERSON}\\b`),
  // "connect me to an agent", "transfer me to a human", "put me through to someone"
  new RegExp(`\\b(?:connect|transfer|put|pass|escalate) (?:me |this )?(?:to|with|through to|over to) ${EN_ARTICLE}${EN_PERSON}\\b`),
  // "I want a human", "I need a real person", "give me an agent"
  new RegExp(`\\b(?:i (?:want|need|would like|d like)|give me|get me|let me have|can i have|can i get|may i have) ${EN_ARTICLE}${EN_PERSON}\\b`),
  // "is there a human I can talk to", "is anyone there", "any real person here"
  /\b(?:is there|are there) (?:a |an |any )?(?:real |live |actual )?(?:human|person|people|agent|someone|anyone|somebody)\b.*\b(?:talk|speak|chat|help|there|available)\b/,
  // The request alone: "human please", "agent", "live agent", "a real person please"
  new RegExp(`^(?:${EN_ARTICLE})?${EN_PERSON}(?: please| now| pls| plz)?$`),
  /\b(?:live|human) (?:agent|support|person)\b/,
];

const FR_PERSON =
  "(?:une vraie personne|une personne reelle|une personne|un etre humain|un humain|une humaine|quelqu un|un conseiller|une conseillere|un agent|un operateur|une operatrice|un employe|une employee|un vendeur|une vendeuse|un interlocuteur|une interlocutrice|un responsable|le service client|un membre de (?:votre|l) equipe|votre equipe|une personne du service client)";

const fr: RegExp[] = [
  // "parler à un conseiller", "discuter avec une vraie personne", "échanger avec quelqu'un"
  new RegExp(`\\b(?:parler|discuter|echanger|causer|m adresser) (?:a|avec|au|aupres d) ${FR_PERSON}\\b`),
  // "je veux un humain", "je voudrais une personne", "puis-je avoir un conseiller"
  new RegExp(`\\b(?:je veux|je voudrais|j aimerais|je souhaite|je souhaiterais|puis je avoir|est ce que je peux avoir|donnez moi|passez moi) (?:parler a |parler avec |avoir |joindre |contacter )?${FR_PERSON}\\b`),
  // "mettez-moi en relation avec un conseiller", "me mettre en contact avec quelqu'un"
  new RegExp(`\\b(?:mettre|mettez|mets|me mettre) (?:moi )?en (?:relation|contact) avec ${FR_PERSON}\\b`),
  // "y a-t-il un humain", "il y a quelqu'un ?"
  /\b(?:y a t il|il y a|y a) (?:un humain|une personne|quelqu un|un conseiller|un agent)\b/,
  // The request alone: "un humain svp", "conseiller", "une vraie personne s'il vous plaît"
  new RegExp(`^(?:${FR_PERSON}|humain|conseiller|conseillere|agent|operateur)(?: svp| s il vous plait| s il te plait| stp| merci)?$`),
];

const AR_PERSON = "(?:شخص|انسان|موظف|موظفه|بشري|بشر|احد|ممثل|وكيل|مسؤول|مندوب|عامل|خدمه العملاء|خدمة العملاء|الدعم)";

const ar: RegExp[] = [
  // "أريد التحدث إلى شخص", "ممكن اتكلم مع موظف", "التواصل مع إنسان"
  new RegExp(`(?:التحدث|التكلم|الحديث|التواصل|اتكلم|اتحدث|اكلم|نتكلم|نتحدث|تحدث|تكلم|كلمني|حولني|وصلني|اوصلني)\\s+(?:مع|الى|لى|ل|ب)?\\s*(?:ال)?${AR_PERSON}`),
  // "أريد موظف", "ابغى شخص حقيقي", "بدي انسان"
  new RegExp(`(?:اريد|ابغى|ابغي|بدي|عايز|عاوز|اود|احتاج|ابي)\\s+(?:ال)?${AR_PERSON}`),
  // "شخص حقيقي", "موظف حقيقي", "إنسان حقيقي"
  /(?:شخص|موظف|انسان)\s+حقيقي/,
  // The request alone: "موظف من فضلك", "خدمة العملاء"
  new RegExp(`^(?:ال)?${AR_PERSON}(?:\\s+(?:من فضلك|لو سمحت|رجاء))?$`),
];

/**
 * The language of a plain request for a person in `text`, or null (not one, or longer than a
 * plain request). Never throws; bounded work (the text is cut first).
 */
export function handoffIntent(text: string): HandoffLanguage | null {
  if (text.length > MAX_CHARS) return null;
  const plain = normaliseForIntent(text);
  if (!plain) return null;
  if (/[\u0600-\u06ff]/.test(plain)) return ar.some((re) => re.test(plain)) ? "ar" : null;
  // English first: a word both languages share ("agent") reads as English.
  if (en.some((re) => re.test(plain))) return "en";
  if (fr.some((re) => re.test(plain))) return "fr";
  return null;
}

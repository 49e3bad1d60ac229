/**
 * The embeddable widget's own interface text in its three languages (chosen for Tala; the spec
 * does not show the visitor widget). English reuses the contract's messages where one exists, so
 * no copy of a message lives in the widget. Imports only plain-data modules: the widget bundle
 * imports this file directly and must not pull in zod.
 */
import { botDefenceMessages as B, budgetMessages as G, handoffMessages as H, leadMessages as L, publicAssistantMessages as P, widgetMessages as W } from "./messages";

/** What the SDK's `error` event says when it cannot start (for the host page's developer). */
export const widgetSdkMessages = {
  loadFailed: "The Tala widget could not load.",
  initNeedsKeyAndHost: "Tala: init needs apiKey and host.",
} as const;

export const widgetLocales = ["en", "fr", "ar"] as const;
export type WidgetLocale = (typeof widgetLocales)[number];
/** Locales written right to left: the panel gets dir="rtl". */
export const rtlWidgetLocales: readonly WidgetLocale[] = ["ar"];

export interface WidgetStrings {
  openChat: string;
  closeChat: string;
  messageLabel: string;
  placeholder: string;
  send: string;
  stop: string;
  retry: string;
  newConversation: string;
  /** The question "+" asks once the visitor has written in the conversation. */
  newConversationConfirm: string;
  cancel: string;
  attach: string;
  thinking: string;
  you: string;
  assistant: string;
  sources: string;
  /** The rating buttons under an answer. */
  helpful: string;
  notHelpful: string;
  stopped: string;
  remaining: (n: number) => string;
  loadFailed: string;
  sendFailed: string;
  messageTooLong: (max: number) => string;
  /** A verified visitor's earlier conversations (header button and the list's title). */
  conversations: string;
  /** A part of the widget loaded on demand (a language, the list, the browser check) did not load. */
  partFailed: string;
  /** The owner's starter questions offered as chips before the first message (their group's name). */
  suggested: string;
  /** The "Talk to a person" action (header and under a reply that offers it), when the owner turns it on. */
  talkToPerson: string;
}

/**
 * One export per language: widget-core.js carries English only; French and Arabic are chunks of
 * their own (widget-sdk/src/chunks/), loaded when the visitor's language is one of them.
 */
export const enWidgetStrings: WidgetStrings = {
  openChat: "Open chat",
  closeChat: "Close chat",
  messageLabel: "Message",
  placeholder: "Type your message…",
  send: "Send",
  stop: "Stop",
  retry: "Retry",
  newConversation: "New conversation",
  newConversationConfirm: "Start a new conversation? This one will no longer be shown.",
  cancel: "Cancel",
  attach: "Attach a file",
  thinking: "The assistant is typing…",
  you: "You",
  assistant: "Assistant",
  sources: "Sources",
  helpful: "Helpful",
  notHelpful: "Not helpful",
  stopped: "Stopped",
  remaining: (n) => (n === 1 ? "1 message left" : `${n} messages left`),
  loadFailed: "The chat could not load. Please try again later.",
  sendFailed: "Your message could not be sent. Check your connection and try again.",
  messageTooLong: W.messageTooLong,
  conversations: "Conversations",
  partFailed: "Part of the chat could not load. Check your connection and try again.",
  suggested: "Suggested questions",
  talkToPerson: "Talk to a person",
};

export const frWidgetStrings: WidgetStrings = {
  openChat: "Ouvrir le chat",
  closeChat: "Fermer le chat",
  messageLabel: "Message",
  placeholder: "Écrivez votre message…",
  send: "Envoyer",
  stop: "Arrêter",
  retry: "Réessayer",
  newConversation: "Nouvelle conversation",
  newConversationConfirm: "Commencer une nouvelle conversation ? Celle-ci ne sera plus affichée.",
  cancel: "Annuler",
  attach: "Joindre un fichier",
  thinking: "L'assistant écrit…",
  you: "Vous",
  assistant: "Assistant",
  sources: "Sources",
  helpful: "Utile",
  notHelpful: "Pas utile",
  stopped: "Arrêté",
  remaining: (n) => (n <= 1 ? `${n} message restant` : `${n} messages restants`),
  loadFailed: "Le chat n'a pas pu se charger. Veuillez réessayer plus tard.",
  sendFailed: "Votre message n'a pas pu être envoyé. Vérifiez votre connexion et réessayez.",
  messageTooLong: (max) => `Un message peut contenir au plus ${max} caractères.`,
  conversations: "Conversations",
  partFailed: "Une partie du chat n'a pas pu se charger. Vérifiez votre connexion et réessayez.",
  suggested: "Questions suggérées",
  talkToPerson: "Parler à une personne",
};

export const arWidgetStrings: WidgetStrings = {
  openChat: "فتح المحادثة",
  closeChat: "إغلاق المحادثة",
  messageLabel: "الرسالة",
  placeholder: "اكتب رسالتك…",
  send: "إرسال",
  stop: "إيقاف",
  retry: "إعادة المحاولة",
  newConversation: "محادثة جديدة",
  newConversationConfirm: "بدء محادثة جديدة؟ لن تُعرض هذه المحادثة بعد الآن.",
  cancel: "إلغاء",
  attach: "إرفاق ملف",
  thinking: "المساعد يكتب…",
  you: "أنت",
  assistant: "المساعد",
  sources: "المصادر",
  helpful: "مفيد",
  notHelpful: "غير مفيد",
  stopped: "تم الإيقاف",
  remaining: (n) => `الرسائل المتبقية: ${n}`,
  loadFailed: "تعذر تحميل المحادثة. يرجى المحاولة لاحقًا.",
  sendFailed: "تعذر إرسال رسالتك. تحقق من اتصالك وحاول مرة أخرى.",
  messageTooLong: (max) => `يمكن أن تحتوي الرسالة على ${max} حرف على الأكثر.`,
  conversations: "المحادثات",
  partFailed: "تعذر تحميل جزء من المحادثة. تحقق من اتصالك وحاول مرة أخرى.",
  suggested: "أسئلة مقترحة",
  talkToPerson: "التحدث إلى شخص",
};

/**
 * When the chat cannot go on (the blocked chunk carries them, in every language: few visitors meet
 * these moments). English is the contract's refusals as the server sends them, which is how the
 * chunk recognises them; a refused visitor token is never shown as the server's technical text.
 */
export interface WidgetBlockedStrings {
  /** A signed visitor's token was refused and the host page gave no new one. */
  tokenExpired: string;
  /** The assistant is switched off (or the site's key no longer works). */
  unavailable: string;
  /** The owner's monthly budget is used up (the assistant is paused until next month). */
  budgetReached: string;
  dailyLimitReached: string;
  sessionLimitReached: string;
}

export const widgetBlockedStrings: Record<WidgetLocale, WidgetBlockedStrings> = {
  en: {
    tokenExpired: "Please refresh the page to keep chatting.",
    unavailable: W.unavailable,
    budgetReached: G.budgetReached,
    dailyLimitReached: W.dailyLimitReached,
    sessionLimitReached: W.sessionLimitReached,
  },
  fr: {
    tokenExpired: "Veuillez actualiser la page pour continuer la conversation.",
    unavailable: "Cet assistant n'est pas disponible pour le moment.",
    budgetReached: "Cet assistant a répondu à tous les messages possibles ce mois-ci. Veuillez réessayer plus tard.",
    dailyLimitReached: "Cet assistant a atteint sa limite quotidienne de messages. Veuillez réessayer demain.",
    sessionLimitReached: "Vous avez atteint la limite de messages de cette conversation. Commencez une nouvelle conversation pour continuer.",
  },
  ar: {
    tokenExpired: "يرجى تحديث الصفحة لمتابعة المحادثة.",
    unavailable: "هذا المساعد غير متاح الآن.",
    budgetReached: "أجاب هذا المساعد على كل الرسائل الممكنة هذا الشهر. يرجى المحاولة لاحقًا.",
    dailyLimitReached: "بلغ هذا المساعد حده اليومي من الرسائل. يرجى المحاولة غدًا.",
    sessionLimitReached: "لقد بلغت الحد الأقصى للرسائل في هذه المحادثة. ابدأ محادثة جديدة للمتابعة.",
  },
};

/** The proof-of-work's quiet status line, past a second (the pow chunk carries it, in every language: few visitors are asked for a proof). */
export interface WidgetPowStrings {
  challengeRequired: string;
}

export const widgetPowStrings: Record<WidgetLocale, WidgetPowStrings> = {
  en: { challengeRequired: B.challengeRequired },
  fr: { challengeRequired: "Vérification de votre navigateur avant le début de la conversation…" },
  ar: { challengeRequired: "جارٍ التحقق من متصفحك قبل بدء المحادثة…" },
};

/** A verified visitor's Conversations view (the visitor chunk carries it, in every language). */
export interface WidgetVisitorStrings {
  /** The list is empty. */
  noConversations: string;
}

export const widgetVisitorStrings: Record<WidgetLocale, WidgetVisitorStrings> = {
  en: { noConversations: "No earlier conversations." },
  fr: { noConversations: "Aucune conversation précédente." },
  ar: { noConversations: "لا توجد محادثات سابقة." },
};

/** What reading an attachment may say: only the attachments chunk (sites that allow them) carries these, in every language. */
export interface WidgetFileStrings {
  invalidFileType: (file: string) => string;
  fileTooLarge: (file: string) => string;
  tooManyFiles: (max: number) => string;
  /** An attachment chip's remove button (the chips are the files chunk's too). */
  removeFile: (name: string) => string;
}

export const widgetFileStrings: Record<WidgetLocale, WidgetFileStrings> = {
  en: {
    invalidFileType: P.invalidFileType,
    fileTooLarge: P.fileTooLarge,
    tooManyFiles: W.tooManyFiles,
    removeFile: (name) => `Remove ${name}`,
  },
  fr: {
    invalidFileType: (file) => `${file} n'est pas un type de fichier pris en charge.`,
    fileTooLarge: (file) => `${file} dépasse la limite de 15 Mo.`,
    tooManyFiles: (max) => `Joignez au plus ${max} fichiers à un message.`,
    removeFile: (name) => `Retirer ${name}`,
  },
  ar: {
    invalidFileType: (file) => `${file} ليس نوع ملف مدعومًا.`,
    fileTooLarge: (file) => `${file} يتجاوز حد 15 ميغابايت.`,
    tooManyFiles: (max) => `أرفق ${max} ملفات على الأكثر بالرسالة الواحدة.`,
    removeFile: (name) => `إزالة ${name}`,
  },
};

/**
 * A person taking over (contract/schemas/handoff.ts): the handoff chunk carries the English ones
 * (loaded when the visitor asks for a person, or a person writes), the handoff-fr and handoff-ar
 * chunks their language's (the handoff chunk loads them for those visitors). "Talk to a person"
 * itself is in WidgetStrings: the core shows it before the chunk loads. The widget's build shortens
 * these keys everywhere: none may be a name the wire or the DOM uses (`typing`, `left`…).
 */
export interface WidgetHandoffStrings {
  /** A note in the conversation once the visitor asked. */
  waiting: string;
  /** Back to the assistant while nobody took the conversation. */
  backToAssistant: string;
  /** A note when a person joined (their name when known). */
  joined: (name?: string) => string;
  /** A note when the person handed the conversation back (or it ended by itself). */
  handedBack: string;
  /** The person types (their name when known). */
  personTyping: (name?: string) => string;
  /** Nobody took it in time: the e-mail ask, its field's label, and its dismissal. */
  emailAsk: string;
  emailLabel: string;
  noThanks: string;
  emailInvalid: string;
  /** A note once an address was left (the address itself is not repeated). */
  emailThanks: string;
  /** Asking for a person, going back or leaving an address failed without the server's text. */
  requestFailed: string;
}

export const enHandoffStrings: WidgetHandoffStrings = {
    waiting: "A person will reply here.",
    backToAssistant: "Continue with the assistant",
    joined: (name) => `${name || "A person"} joined the conversation.`,
    handedBack: "Handed back to the assistant.",
    personTyping: (name) => `${name || "A person"} is typing…`,
    emailAsk: "Nobody is free right now. Leave your e-mail address and the reply will reach you there too.",
    emailLabel: "Your e-mail address",
    noThanks: "No thanks",
    emailInvalid: H.emailInvalid,
    emailThanks: "Thank you: the reply will reach your e-mail too.",
    requestFailed: "Your request could not be sent. Check your connection and try again.",
};

export const frHandoffStrings: WidgetHandoffStrings = {
    waiting: "Une personne vous répondra ici.",
    backToAssistant: "Continuer avec l'assistant",
    joined: (name) => `${name || "Une personne"} a rejoint la conversation.`,
    handedBack: "Conversation rendue à l'assistant.",
    personTyping: (name) => `${name || "Une personne"} écrit…`,
    emailAsk: "Personne n'est disponible pour le moment. Laissez votre adresse e-mail : la réponse vous y parviendra aussi.",
    emailLabel: "Votre adresse e-mail",
    noThanks: "Non merci",
    emailInvalid: "Saisissez une adresse e-mail valide.",
    emailThanks: "Merci : la réponse vous parviendra aussi par e-mail.",
    requestFailed: "Votre demande n'a pas pu être envoyée. Vérifiez votre connexion et réessayez.",
};

export const arHandoffStrings: WidgetHandoffStrings = {
    waiting: "سيرد عليك شخص هنا.",
    backToAssistant: "المتابعة مع المساعد",
    joined: (name) => `انضم ${name || "شخص"} إلى المحادثة.`,
    handedBack: "أُعيدت المحادثة إلى المساعد.",
    personTyping: (name) => `${name || "شخص"} يكتب…`,
    emailAsk: "لا يوجد أحد متاح الآن. اترك بريدك الإلكتروني ليصلك الرد عليه أيضًا.",
    emailLabel: "بريدك الإلكتروني",
    noThanks: "لا، شكرًا",
    emailInvalid: "أدخل بريدًا إلكترونيًا صالحًا.",
    emailThanks: "شكرًا: سيصلك الرد عبر البريد الإلكتروني أيضًا.",
    requestFailed: "تعذر إرسال طلبك. تحقق من اتصالك وحاول مرة أخرى.",
};

export const widgetHandoffStrings: Record<WidgetLocale, WidgetHandoffStrings> = { en: enHandoffStrings, fr: frHandoffStrings, ar: arHandoffStrings };

/**
 * The owner's lead form (contract/schemas/leads.ts): the lead chunk carries the English ones
 * (loaded when the form is to show), the fr and ar chunks their language's. The owner's own
 * texts (labels, intro, thank-you line) come first; these are the defaults. The widget's build
 * shortens these keys everywhere, so each starts with `lead`: none may be a name the wire or the
 * DOM uses (`intro`, `thanks`, `required`, `label`…). `leadKinds` is read by a field's kind.
 */
export interface WidgetLeadStrings {
  /** A known kind's label when the owner gave none (a `text` field always has the owner's). */
  leadKinds: { name: string; email: string; phone: string; company: string };
  /** After a required field's label, in brackets: required is said in text, not only by colour. */
  leadRequired: string;
  /** Dismisses the form (not offered when it is required before the first message). */
  leadNotNow: string;
  /** The form's intro and its thank-you line when the owner wrote none. */
  leadIntro: string;
  leadThanks: string;
  /** Above the disabled composer while a required form waits. */
  leadFirst: string;
  /** Checks before sending, as the server's (leadMessages). */
  leadMissing: (label: string) => string;
  leadEmail: string;
  leadPhone: string;
  /** The announced summary when a field needs fixing. */
  leadFix: string;
  /** Sending failed without the server's text (offline, a 5xx). */
  leadFailed: string;
}

export const enLeadStrings: WidgetLeadStrings = {
  leadKinds: { name: "Name", email: "E-mail", phone: "Phone", company: "Company" },
  leadRequired: "required",
  leadNotNow: "Not now",
  leadIntro: "Leave your details and we'll get back to you.",
  leadThanks: "Thank you! We'll be in touch soon.",
  leadFirst: "Leave your details above to start the conversation.",
  leadMissing: L.valueRequired,
  leadEmail: L.emailInvalid,
  leadPhone: L.phoneInvalid,
  leadFix: "Please check the details you entered.",
  leadFailed: "Your details could not be sent. Check your connection and try again.",
};

export const frLeadStrings: WidgetLeadStrings = {
  leadKinds: { name: "Nom", email: "E-mail", phone: "Téléphone", company: "Entreprise" },
  leadRequired: "obligatoire",
  leadNotNow: "Plus tard",
  leadIntro: "Laissez vos coordonnées et nous vous recontacterons.",
  leadThanks: "Merci ! Nous vous recontacterons bientôt.",
  leadFirst: "Laissez vos coordonnées ci-dessus pour commencer la conversation.",
  leadMissing: (label) => `Le champ « ${label} » est obligatoire.`,
  leadEmail: "Saisissez une adresse e-mail valide.",
  leadPhone: "Saisissez un numéro de téléphone valide.",
  leadFix: "Vérifiez les informations saisies.",
  leadFailed: "Vos coordonnées n'ont pas pu être envoyées. Vérifiez votre connexion et réessayez.",
};

export const arLeadStrings: WidgetLeadStrings = {
  leadKinds: { name: "الاسم", email: "البريد الإلكتروني", phone: "الهاتف", company: "الشركة" },
  leadRequired: "مطلوب",
  leadNotNow: "ليس الآن",
  leadIntro: "اترك بياناتك وسنعاود التواصل معك.",
  leadThanks: "شكرًا لك! سنتواصل معك قريبًا.",
  leadFirst: "اترك بياناتك أعلاه لبدء المحادثة.",
  leadMissing: (label) => `الحقل «${label}» مطلوب.`,
  leadEmail: "أدخل بريدًا إلكترونيًا صالحًا.",
  leadPhone: "أدخل رقم هاتف صالحًا.",
  leadFix: "يرجى التحقق من البيانات التي أدخلتها.",
  leadFailed: "تعذر إرسال بياناتك. تحقق من اتصالك وحاول مرة أخرى.",
};

export const widgetLeadStrings: Record<WidgetLocale, WidgetLeadStrings> = { en: enLeadStrings, fr: frLeadStrings, ar: arLeadStrings };

/** Every string of a language (the tests and the E2E suite read them here). */
export const widgetStrings: Record<WidgetLocale, WidgetStrings & WidgetFileStrings & WidgetHandoffStrings & WidgetBlockedStrings & WidgetLeadStrings & WidgetPowStrings & WidgetVisitorStrings> = {
  en: { ...enWidgetStrings, ...widgetFileStrings.en, ...widgetHandoffStrings.en, ...widgetBlockedStrings.en, ...widgetLeadStrings.en, ...widgetPowStrings.en, ...widgetVisitorStrings.en },
  fr: { ...frWidgetStrings, ...widgetFileStrings.fr, ...widgetHandoffStrings.fr, ...widgetBlockedStrings.fr, ...widgetLeadStrings.fr, ...widgetPowStrings.fr, ...widgetVisitorStrings.fr },
  ar: { ...arWidgetStrings, ...widgetFileStrings.ar, ...widgetHandoffStrings.ar, ...widgetBlockedStrings.ar, ...widgetLeadStrings.ar, ...widgetPowStrings.ar, ...widgetVisitorStrings.ar },
};

import { describe, expect, it } from "vitest";
import { contactIntent } from "./contact-intent";
import { handoffIntent } from "./handoff-intent";

describe("contactIntent: a visitor asking to be contacted, no model", () => {
  it.each([
    "Can someone contact me?",
    "call me back",
    "Please email me",
    "Could you call me back tomorrow?",
    "I'd like to be contacted by your sales team",
    "Can you get back to me about the quote?",
    "Please get in touch with me",
    "send me an email with the details",
    "Can I leave my number?",
    "I want a callback",
  ])("en: %s", (text) => expect(contactIntent(text)).toBe("en"));

  it.each([
    "je voudrais être recontacté",
    "Rappelez-moi",
    "Pouvez-vous me rappeler demain ?",
    "J'aimerais être rappelée svp",
    "Quelqu'un peut me contacter ?",
    "contactez-moi par e-mail",
    "Envoyez-moi un mail",
    "je veux laisser mes coordonnées",
  ])("fr: %s", (text) => expect(contactIntent(text)).toBe("fr"));

  it.each(["اتصلوا بي", "أريد أن يتواصل معي أحد", "تواصلوا معي من فضلك", "عاودوا الاتصال بي", "راسلوني على البريد", "أريد ترك رقمي"])("ar: %s", (text) =>
    expect(contactIntent(text)).toBe("ar"),
  );

  it.each([
    // Questions about reaching the business: the model answers them, with the owner's contact line.
    "How do I contact support?",
    "What is your phone number?",
    "Can I call you tomorrow?",
    "I will call back later",
    "Is there a contact page?",
    "My manager called me yesterday about the order",
    "What is this product called?",
    "Comment vous contacter ?",
    "Quel est votre numéro de téléphone ?",
    "Je m'appelle Marie",
    "كيف أتواصل معكم؟",
    "ما هو رقم الهاتف؟",
    "What is your refund policy?",
    "",
    `Please call me back. ${"And tell me everything about shipping. ".repeat(10)}`,
  ])("not a request to be contacted: %s", (text) => expect(contactIntent(text)).toBeNull());

  it("a plain request for a person is the handoff's, not a contact request", () => {
    for (const text of ["Can I talk to a person?", "Je voudrais parler à un conseiller", "أريد التحدث إلى شخص"]) {
      expect(handoffIntent(text)).not.toBeNull();
      expect(contactIntent(text)).toBeNull();
    }
  });
});

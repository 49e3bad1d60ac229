import { describe, expect, it } from "vitest";
import { handoffIntent } from "./handoff-intent";

describe("handoffIntent: a plain request for a person, no model", () => {
  it.each([
    "Can I talk to a person?",
    "I want to speak with a real human",
    "talk to someone please",
    "Connect me to an agent",
    "transfer me to a human!",
    "I need a real person",
    "Human please",
    "agent",
    "Live agent",
    "Is there a human I can talk to?",
    "Can I speak to a manager?",
    "I'd like to chat with someone from your team",
  ])("en: %s", (text) => expect(handoffIntent(text)).toBe("en"));

  it.each([
    "Je voudrais parler à un conseiller",
    "Puis-je parler à une vraie personne ?",
    "je veux un humain",
    "Mettez-moi en relation avec quelqu'un, svp",
    "Un humain svp",
    "J'aimerais discuter avec une personne du service client",
    "Y a-t-il un humain ?",
    "conseiller",
  ])("fr: %s", (text) => expect(handoffIntent(text)).toBe("fr"));

  it.each(["أريد التحدث إلى شخص", "ممكن أتكلم مع موظف؟", "أريد موظف من فضلك", "شخص حقيقي", "حولني إلى خدمة العملاء", "بدي إنسان"])("ar: %s", (text) =>
    expect(handoffIntent(text)).toBe("ar"),
  );

  it.each([
    "I'm a person who needs help with returns",
    "How many people work at your store?",
    "Does a real person read these messages? Also what are your hours?".repeat(6),
    "What is your refund policy?",
    "Is the live chat open on Sundays?",
    "My agent number is 42, where is my parcel?",
    "Can a person return an item after 30 days?",
    "Je suis une personne qui a besoin d'aide pour un retour",
    "Combien de personnes travaillent chez vous ?",
    "Quelle est votre politique de remboursement ?",
    "أنا شخص أحتاج مساعدة في الإرجاع",
    "ما هي سياسة الاسترجاع؟",
    "",
    "   ",
  ])("not a request: %s", (text) => expect(handoffIntent(text)).toBeNull());
});

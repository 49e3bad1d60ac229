import { describe, expect, it } from "vitest";
import { publicAssistantDefaults as D, publicAssistantSchema, type PublicAssistant } from "../../../../contract";
import { appearanceChanged, checklistState, onboardingProgress } from "./onboarding";

function assistant(overrides: { customization?: Partial<PublicAssistant["config"]["customization"]>; files?: number; sessions?: number; onboarding?: Partial<PublicAssistant["config"]["onboarding"]> } = {}): PublicAssistant {
  return publicAssistantSchema.parse({
    _id: "a1",
    name: "Helper",
    description: "",
    isActive: true,
    apiKey: "tala_pk_ab…yz",
    config: {
      ...D.config,
      customization: { ...D.config.customization, ...overrides.customization },
      onboarding: { ...D.config.onboarding, ...overrides.onboarding },
    },
    integration: D.integration,
    instructions: "",
    allowedOrigins: [],
    showSources: true,
    files: Array.from({ length: overrides.files ?? 0 }, (_, i) => ({ _id: `f${i}`, name: "a.md", size: 3, uploadedAt: 1, status: "ready", error: null, chunkCount: 1 })),
    stats: { totalSessions: overrides.sessions ?? 0 },
    createdAt: 1,
    updatedAt: 1,
  });
}

const none = { sources: null, qa: null };

describe("the first-hour checklist", () => {
  it("a new assistant has nothing done and shows the checklist", () => {
    const a = assistant();
    const progress = onboardingProgress(a, none);
    expect(progress).toEqual({ knowledge: false, customise: false, playground: false, install: false, visitor: false });
    expect(checklistState(a, progress)).toBe("open");
  });

  it("knowledge ticks for files, website sources or curated answers", () => {
    expect(onboardingProgress(assistant({ files: 1 }), none).knowledge).toBe(true);
    expect(onboardingProgress(assistant(), { sources: 2, qa: 0 }).knowledge).toBe(true);
    expect(onboardingProgress(assistant(), { sources: 0, qa: 1 }).knowledge).toBe(true);
    expect(onboardingProgress(assistant(), { sources: 0, qa: 0 }).knowledge).toBe(false);
  });

  it("customise ticks when anything the widget shows changed, a colour's case alone does not count", () => {
    expect(appearanceChanged(assistant({ customization: { primaryColor: D.config.customization.primaryColor.toLowerCase() } }))).toBe(false);
    expect(appearanceChanged(assistant({ customization: { primaryColor: "#0F766E" } }))).toBe(true);
    expect(appearanceChanged(assistant({ customization: { theme: "dark" } }))).toBe(true);
    expect(appearanceChanged(assistant({ customization: { avatarUrl: "https://t.example/a" } }))).toBe(true);
  });

  it("install ticks for a copied snippet or a visitor; the Playground from the server's record", () => {
    expect(onboardingProgress(assistant({ onboarding: { snippetCopiedAt: 5 } }), none)).toMatchObject({ install: true, visitor: false });
    expect(onboardingProgress(assistant({ sessions: 1 }), none)).toMatchObject({ install: true, visitor: true });
    expect(onboardingProgress(assistant({ onboarding: { playgroundAt: 5 } }), none).playground).toBe(true);
  });

  it("hidden once dismissed, gone once every step is done", () => {
    const hidden = assistant({ onboarding: { dismissedAt: 9 } });
    expect(checklistState(hidden, onboardingProgress(hidden, none))).toBe("hidden");
    const done = assistant({ files: 1, sessions: 1, customization: { headerText: "Shop" }, onboarding: { playgroundAt: 1, dismissedAt: 9 } });
    expect(checklistState(done, onboardingProgress(done, none))).toBe("done");
  });
});

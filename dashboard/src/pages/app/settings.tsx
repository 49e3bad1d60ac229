/** /app/settings: profile, appearance, model, e-mail, password, sign out and account deletion. Signed-in users only. */
import { DeleteAccountSection } from "../../components/settings/delete-account-section";
import { EmailSection } from "../../components/settings/email-section";
import { ModelSection } from "../../components/settings/model-section";
import { PasswordSection } from "../../components/settings/password-section";
import { ProfileSection } from "../../components/settings/profile-section";
import { SettingsSection } from "../../components/settings/section";
import { SessionSection } from "../../components/settings/session-section";
import { PaletteIcon } from "../../components/ui/icons";
import { PageContainer, PageHeader } from "../../components/ui/page";
import { ThemeRadioGroup } from "../../components/ui/theme-controls";
import { useAuth } from "../../stores/auth";

export default function SettingsPage() {
  const user = useAuth((s) => s.user);
  if (!user) return null; // RequireAccount guarantees a user; this keeps the types honest
  return (
    <PageContainer>
      <PageHeader title="Settings" description="Manage your profile, how Tala looks, the model it uses, and how you sign in." />
      <div className="divide-y divide-line">
        <ProfileSection user={user} />
        <SettingsSection title="Appearance" description="Light, dark, or follow your device." icon={<PaletteIcon size={18} />}>
          <ThemeRadioGroup />
        </SettingsSection>
        <ModelSection />
        <EmailSection user={user} />
        <PasswordSection user={user} />
        <SessionSection user={user} />
        <DeleteAccountSection user={user} />
      </div>
    </PageContainer>
  );
}

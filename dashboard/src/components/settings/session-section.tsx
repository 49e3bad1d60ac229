/** Settings → Sign out: ends this session (same as Logout in the user menu). */
import { useState } from "react";
import { formatDay } from "../../lib/format";
import { useAuth } from "../../stores/auth";
import { Button } from "../ui/button";
import { LogOutIcon } from "../ui/icons";
import { SettingsSection } from "./section";
import type { User } from "../../../../contract";

export function SessionSection({ user }: { user: User }) {
  const logout = useAuth((s) => s.logout);
  const [busy, setBusy] = useState(false);
  return (
    <SettingsSection title="Sign out" description="Sign out of Tala on this device." icon={<LogOutIcon size={18} />}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted">
          Signed in as <span className="font-medium text-fg">{user.email}</span>
          {user.createdAt > 0 && <> · member since {formatDay(user.createdAt)}</>}
        </p>
        <Button
          variant="danger"
          busy={busy}
          onClick={() => {
            setBusy(true);
            void logout();
          }}
        >
          Sign out
        </Button>
      </div>
    </SettingsSection>
  );
}

/**
 * /app/team: the workspace on screen (the switcher's), its members and pending invitations,
 * Invite, the owner's name and ownership transfer; the audit log (`?tab=audit`) for the roles
 * that may read it. Every control follows the caller's role there (components/team/team-model.ts);
 * what the server still refuses shows its message.
 */
import { useCallback, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { appMessages, appRoutes, can, teamUi } from "../../../../contract";
import { AuditLog } from "../../components/team/audit-log";
import { InvitationsSection } from "../../components/team/invitations-section";
import { InviteDialog } from "../../components/team/invite-dialog";
import { MembersSection } from "../../components/team/members-section";
import { TransferSection, WorkspaceNameSection } from "../../components/team/ownership-section";
import { roleName } from "../../components/team/team-model";
import { RetryAlert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { PlusIcon } from "../../components/ui/icons";
import { PageContainer, PageHeader } from "../../components/ui/page";
import { Spinner } from "../../components/ui/spinner";
import { TabList, TabPanel, useTabIds } from "../../components/ui/tabs";
import { teamApi } from "../../lib/team-api";
import { useLoaded } from "../../lib/use-loaded";
import { useAuth } from "../../stores/auth";
import { refreshWorkspaces } from "../../stores/workspace";

const P = teamUi.page;
type TeamTab = "members" | "audit";

export default function TeamPage() {
  const userId = useAuth((s) => s.user?.id ?? "");
  const search = useSearch();
  const [, navigate] = useLocation();
  const ids = useTabIds("team");
  const fetchTeam = useCallback((signal?: AbortSignal) => teamApi.team(signal), []);
  const { state, reload } = useLoaded(fetchTeam, P.loadError);
  const [inviting, setInviting] = useState(false);

  // A change here may change the switcher's list or the caller's own role.
  const changed = useCallback(() => {
    void reload();
    void refreshWorkspaces();
  }, [reload]);

  if (state.kind !== "ready") {
    return (
      <PageContainer>
        <PageHeader title={P.title} />
        <div className="mt-6">
          {state.kind === "loading" ? (
            <div className="flex h-40 items-center justify-center text-faint" role="status">
              <Spinner size={24} className="text-accent" />
              <span className="sr-only">{appMessages.loading}</span>
            </div>
          ) : (
            <RetryAlert message={state.message} onRetry={() => void reload()} />
          )}
        </div>
      </PageContainer>
    );
  }

  const team = state.value;
  const role = team.workspace.role;
  const showAudit = can(role, "audit.read");
  const tab: TeamTab = showAudit && new URLSearchParams(search).get("tab") === "audit" ? "audit" : "members";
  const tabs = [
    { key: "members" as const, label: P.membersTab },
    ...(showAudit ? [{ key: "audit" as const, label: P.auditTab }] : []),
  ];

  const membersTab = (
    <>
      <MembersSection
        team={team}
        userId={userId}
        onChanged={changed}
        onLeft={() => {
          void refreshWorkspaces();
          navigate(appRoutes.publicAssistants);
        }}
      />
      {can(role, "team.manage") && <InvitationsSection invitations={team.invitations} onChanged={changed} />}
      {role === "owner" && <WorkspaceNameSection key={team.workspace.name} team={team} onChanged={changed} />}
      {role === "owner" && <TransferSection team={team} onTransferred={changed} />}
    </>
  );

  return (
    <PageContainer>
      <PageHeader
        title={P.title}
        description={
          <>
            {P.description(team.workspace.name)} <span className="font-medium text-fg">{P.yourRole(roleName(role))}</span>
          </>
        }
      >
        {can(role, "team.manage") && (
          <Button onClick={() => setInviting(true)}>
            <PlusIcon size={16} /> {teamUi.inviteDialog.open}
          </Button>
        )}
      </PageHeader>
      {showAudit && (
        <TabList
          items={tabs}
          value={tab}
          onChange={(key) => navigate(key === "audit" ? `${appRoutes.team}?tab=audit` : appRoutes.team)}
          label={P.tabsLabel}
          ids={ids}
          className="mt-6 w-full sm:w-fit"
        />
      )}
      {showAudit ? (
        <>
          <TabPanel tabKey="members" ids={ids} hidden={tab !== "members"} className="mt-6 space-y-8">
            {membersTab}
          </TabPanel>
          {tab === "audit" && (
            <TabPanel tabKey="audit" ids={ids} className="mt-6">
              <AuditLog members={team.members} />
            </TabPanel>
          )}
        </>
      ) : (
        <div className="mt-6 space-y-8">{membersTab}</div>
      )}
      {inviting && <InviteDialog open onOpenChange={setInviting} caller={role} workspaceName={team.workspace.name} onInvited={changed} />}
    </PageContainer>
  );
}

/**
 * Settings → Model: the language model of the user's chats (GET /api/models, PUT /api/settings).
 * A select when the server offers several models; one line when it offers one; in offline mode (no
 * model configured) the select is hidden and a one-line note says why.
 */
import { useEffect, useId, useState } from "react";
import { modelSettingsUi as M, type ModelsResponse } from "../../../../contract";
import { errorMessage } from "../../lib/api";
import { chatApi } from "../../lib/chat-api";
import { toast } from "../../stores/toast";
import { BotIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { SettingsSection } from "./section";

const selectClasses =
  "block h-10 w-full rounded-lg border border-line-strong bg-surface px-3 text-sm text-fg shadow-xs focus:border-accent focus:ring-3 focus:ring-accent/20 focus:outline-none disabled:opacity-60";

/** The select's value for "the server's default" (the setting is then null). */
const DEFAULT = "";

export function ModelSection() {
  const id = useId();
  const [models, setModels] = useState<ModelsResponse | null | "error">(null);
  const [value, setValue] = useState(DEFAULT);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    chatApi
      .listModels(controller.signal)
      .then((res) => {
        setModels(res);
        setValue(res.selected && res.models.includes(res.selected) ? res.selected : DEFAULT);
      })
      .catch(() => {
        if (!controller.signal.aborted) setModels("error");
      });
    return () => controller.abort();
  }, []);

  const choose = async (next: string) => {
    const previous = value;
    setValue(next);
    setSaving(true);
    try {
      await chatApi.updateSettings(next === DEFAULT ? null : next);
      toast({ description: M.saved, variant: "success" });
    } catch (err) {
      setValue(previous);
      toast({ variant: "destructive", title: M.saveFailed, description: errorMessage(err, M.saveFailed) });
    } finally {
      setSaving(false);
    }
  };

  let body;
  if (models === null) body = <Spinner size={18} className="text-faint" />;
  else if (models === "error") body = <p className="text-sm text-muted">{M.loadFailed}</p>;
  else if (models.offline || models.models.length === 0) body = <p className="text-sm text-muted">{M.offline}</p>;
  else if (models.models.length === 1) body = <p className="text-sm text-muted">{M.single(models.models[0]!)}</p>;
  else {
    const fallback = models.default ?? models.models[0]!;
    body = (
      <div className="max-w-sm">
        <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-fg">
          {M.label}
        </label>
        <div className="flex items-center gap-3">
          <select id={id} value={value} disabled={saving} onChange={(e) => void choose(e.target.value)} className={selectClasses}>
            <option value={DEFAULT}>{M.serverDefault(fallback)}</option>
            {models.models.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
          {saving && <Spinner size={16} className="text-faint" />}
        </div>
      </div>
    );
  }

  return (
    <SettingsSection title={M.title} description={M.description} icon={<BotIcon size={18} />}>
      {body}
    </SettingsSection>
  );
}

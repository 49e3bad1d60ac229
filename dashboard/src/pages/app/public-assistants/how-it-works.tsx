/** The How It Works tab (spec section 2): four steps from creating an assistant to visitors chatting. */
import { publicAssistantUi } from "../../../../../contract";
import { BotIcon, CodeIcon, MessageIcon, UploadIcon } from "../../../components/ui/icons";

const icons = [BotIcon, UploadIcon, CodeIcon, MessageIcon];

export function HowItWorks() {
  return (
    <ol className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      {publicAssistantUi.howItWorks.map((step, i) => {
        const Icon = icons[i] ?? BotIcon;
        return (
          <li key={step.title} className="relative flex flex-col rounded-xl border border-line bg-surface p-5">
            <div className="flex items-center gap-3">
              <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-accent text-sm font-semibold text-white">{i + 1}</span>
              <Icon size={18} className="text-accent-text" />
            </div>
            <h3 className="mt-4 text-sm font-semibold text-fg">{step.title}</h3>
            <p className="mt-1 text-sm text-muted">{step.text}</p>
          </li>
        );
      })}
    </ol>
  );
}

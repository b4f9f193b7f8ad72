-- Consent and provider errors (issue 36, points 2 and 3). A contact's marketing consent (opted_in, opted_out or
-- unknown) with where it came from (keyword, provider, api, console, import) and when; the workspace's opt-out and
-- opt-in keywords and the texts that confirm them; and the time the provider last said a conversation's 24-hour
-- window was closed (error 131047), which closes it until the contact writes again.
ALTER TABLE "customers" ADD COLUMN "marketing_consent_status" TEXT NOT NULL DEFAULT 'unknown';
ALTER TABLE "customers" ADD COLUMN "marketing_consent_source" TEXT;
ALTER TABLE "customers" ADD COLUMN "marketing_consent_updated_at" TIMESTAMPTZ(3);

ALTER TABLE "workspaces" ADD COLUMN "opt_out_keywords" TEXT[] DEFAULT ARRAY['STOP', 'UNSUBSCRIBE', 'PARAR', 'BAJA']::TEXT[];
ALTER TABLE "workspaces" ADD COLUMN "opt_in_keywords" TEXT[] DEFAULT ARRAY['START', 'SUBSCRIBE']::TEXT[];
ALTER TABLE "workspaces" ADD COLUMN "opt_out_confirmation" TEXT;
ALTER TABLE "workspaces" ADD COLUMN "opt_in_confirmation" TEXT;

ALTER TABLE "conversations" ADD COLUMN "window_closed_at" TIMESTAMPTZ(3);

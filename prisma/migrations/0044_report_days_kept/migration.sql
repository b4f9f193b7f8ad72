-- Kept days are computed ahead of the reports (resolvers/reports/dayKeeper.ts), which consumes the marks of ended
-- days by computing them again: a day is no longer kept empty as "to compute again" when its marks were swept
-- unconsumed. Those left from before are removed (a missing day is computed like one that was marked).
DELETE FROM "report_days" WHERE "figures" IS NULL;
ALTER TABLE "report_days" ALTER COLUMN "figures" SET NOT NULL;

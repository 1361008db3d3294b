-- Keeps workspaces.presentation_count exact in the same transaction as every insert or delete,
-- so GET /v1/presentations can report `total` without counting the whole workspace.
CREATE FUNCTION presentations_count_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE workspaces SET presentation_count = presentation_count + 1 WHERE id = NEW.workspace_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE workspaces SET presentation_count = presentation_count - 1 WHERE id = OLD.workspace_id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER presentations_count AFTER INSERT OR DELETE ON presentations
  FOR EACH ROW EXECUTE FUNCTION presentations_count_trigger();

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { validateResponse } from "../helpers/openapi.ts";
import { loadOpenApiYaml } from "../helpers/openapi-document.ts";
import { FIXTURE_STREAMS, REPO_ROOT, startTestService, type TestService } from "../helpers/service.ts";

describe("the served OpenAPI document and Swagger UI", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ recordsDir: join(FIXTURE_STREAMS, "demo", "record0.0.3") });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it("GET /api/v1/docs/openapi.yml is the project's document, byte for byte", async () => {
    const response = await service.get("/api/v1/docs/openapi.yml");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/yaml; charset=utf-8");
    expect(response.text).toBe(loadOpenApiYaml());
  });

  it("GET /api/v1/docs/openapi.json is the same document as JSON", async () => {
    const response = await service.get("/api/v1/docs/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.body).toEqual(parse(loadOpenApiYaml()));
    validateResponse({ path: "/api/v1/docs/openapi.json", status: 200, body: response.body });
  });

  it("GET /api/v1/docs is a Swagger UI page whose every asset is served here, pointed at the document", async () => {
    const page = await service.get("/api/v1/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    // Every script and style sheet comes from this server: the page works with no internet access.
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.sort()).toEqual(
      [
        "/api/v1/docs/swagger-initializer.js",
        "/api/v1/docs/swagger-ui-bundle.js",
        "/api/v1/docs/swagger-ui.css",
      ].sort(),
    );
    const swagger = join(REPO_ROOT, "node_modules", "swagger-ui-dist");
    const bundle = await service.get("/api/v1/docs/swagger-ui-bundle.js");
    expect(bundle.status).toBe(200);
    expect(bundle.text).toBe(readFileSync(join(swagger, "swagger-ui-bundle.js"), "utf8"));
    const css = await service.get("/api/v1/docs/swagger-ui.css");
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(css.text).toBe(readFileSync(join(swagger, "swagger-ui.css"), "utf8"));
    const init = await service.get("/api/v1/docs/swagger-initializer.js");
    expect(init.status).toBe(200);
    expect(init.text).toContain('url: "/api/v1/docs/openapi.yml"');
    // The trailing-slash form a browser may ask for is the same page.
    expect((await service.get("/api/v1/docs/")).text).toBe(page.text);
  });

  it("other files under /api/v1/docs are the mirror node's 404", async () => {
    const response = await service.get("/api/v1/docs/../../package.json");
    expect(response.status).toBe(404);
    const other = await service.get("/api/v1/docs/index.html");
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ _status: { messages: [{ message: "Not found" }] } });
  });
});

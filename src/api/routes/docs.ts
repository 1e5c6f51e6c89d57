import { type RequestHandler, Router } from "express";
import { type AssetName, readAsset } from "../../runtime/assets.ts";

const PREFIX = "/api/v1/docs";

/** The Swagger UI page: no inline script and nothing from the internet, so it works offline and under CSP. */
const PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>mirrorlite REST API</title>
    <link rel="stylesheet" href="${PREFIX}/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${PREFIX}/swagger-ui-bundle.js"></script>
    <script src="${PREFIX}/swagger-initializer.js"></script>
  </body>
</html>
`;

const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({ url: "${PREFIX}/openapi.yml", dom_id: "#swagger-ui", deepLinking: true });
};
`;

/**
 * The OpenAPI document, as YAML and as JSON, at the paths the public mirror node uses, and Swagger UI (bundled
 * with mirrorlite) pointed at it.
 */
export function docsRoutes(): Router {
  const router = Router();
  router.get(`${PREFIX}/openapi.yml`, asset("openapi.yaml", "text/yaml; charset=utf-8"));
  router.get(`${PREFIX}/openapi.json`, asset("openapi.json", "application/json; charset=utf-8"));
  router.get(`${PREFIX}/swagger-ui.css`, asset("swagger-ui.css", "text/css; charset=utf-8"));
  router.get(
    `${PREFIX}/swagger-ui-bundle.js`,
    asset("swagger-ui-bundle.js", "text/javascript; charset=utf-8"),
  );
  router.get(`${PREFIX}/swagger-initializer.js`, (_req, res) => {
    res.status(200).type("text/javascript; charset=utf-8").send(INITIALIZER);
  });
  router.get(PREFIX, (_req, res) => {
    res.status(200).type("text/html; charset=utf-8").send(PAGE);
  });
  return router;
}

/** Serves one asset, read once on first use (the files do not change while the process runs). */
function asset(name: AssetName, contentType: string): RequestHandler {
  let bytes: Promise<Buffer | null> | undefined;
  return async (_req, res, next) => {
    try {
      bytes ??= readAsset(name);
      const body = await bytes;
      if (body === null) return next();
      res.status(200).set("Cache-Control", "public, max-age=300").type(contentType).send(body);
    } catch (error) {
      bytes = undefined;
      next(error);
    }
  };
}

// Socket frame types generated from openapi/asyncapi.yaml by @asyncapi/modelina, for the
// generated-client test (tests/clients/test_socket_clients.py):
//   node tests/clients/generate-frames.mjs <typescript|python> <output file>
// Property names stay the wire's own (`type`, `fill_with_bots`), so a frame is its JSON.
import { writeFileSync } from "node:fs";
import { PythonGenerator, TypeScriptGenerator } from "@asyncapi/modelina";
import { Parser, fromFile } from "@asyncapi/parser";

const [language, out] = process.argv.slice(2);
const { document, diagnostics } = await fromFile(new Parser(), "openapi/asyncapi.yaml").parse();
const errors = diagnostics.filter((d) => d.severity === 0);
if (!document || errors.length) {
  console.error(errors.map((d) => `${d.path.join(".")}: ${d.message}`).join("\n"));
  process.exit(1);
}
const wireName = ({ objectPropertyModel }) => objectPropertyModel.propertyName;
const generator =
  language === "typescript"
    ? new TypeScriptGenerator({
        modelType: "interface",
        enumType: "union",
        constraints: { propertyKey: wireName },
      })
    : new PythonGenerator({ constraints: { propertyKey: wireName } });
const models = await generator.generate(document);
const exported = language === "typescript" ? "export " : "";
const text = models.map((model) => `${exported}${model.result}`).join("\n\n");
writeFileSync(out, `${text}\n`);
console.log(`${models.length} models -> ${out}`);

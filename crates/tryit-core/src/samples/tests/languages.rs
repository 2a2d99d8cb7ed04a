use super::super::*;
use super::*;

#[test]
fn curl_quotes_for_the_shell() {
    assert_eq!(
        generate(Lang::Curl, &post()),
        "curl -i -X POST 'http://127.0.0.1:4010/pets' \\\n  -H 'Content-Type: application/json' \\\n  -H 'Authorization: Bearer it'\\''s' \\\n  --data-raw '{\"name\":\"O'\\''Brien\",\"categoryId\":1,\"ok\":true,\"tag\":null}'"
    );
    let get = Request::new("GET", "http://x/pets?a=1&b=2");
    assert_eq!(generate(Lang::Curl, &get), "curl -i 'http://x/pets?a=1&b=2'");
}

#[test]
fn javascript_uses_fetch_with_json_stringify() {
    let js = generate(Lang::JavaScript, &post());
    assert!(
        js.starts_with("const response = await fetch(\"http://127.0.0.1:4010/pets\", {\n  method: \"POST\","),
        "{js}"
    );
    assert!(js.contains("    \"Authorization\": \"Bearer it's\","), "{js}");
    assert!(js.contains("  body: JSON.stringify({\n    \"name\": \"O'Brien\","), "{js}");
    let get = Request::new("GET", "http://x/pets");
    assert!(generate(Lang::JavaScript, &get).starts_with("const response = await fetch(\"http://x/pets\");"));
}

#[test]
fn python_writes_python_literals_and_lets_requests_set_the_content_type() {
    let py = generate(Lang::Python, &post());
    assert!(py.contains("    json={\n        \"name\": \"O'Brien\",\n        \"categoryId\": 1,\n        \"ok\": True,\n        \"tag\": None,\n    },"), "{py}");
    assert!(!py.contains("Content-Type"), "{py}");
    assert!(py.contains("\"Authorization\": \"Bearer it's\""), "{py}");
}

#[test]
fn a_body_that_is_not_json_is_written_as_text() {
    let text = Request::new("POST", "http://x/notes").header("Content-Type", "text/plain").body("it's");
    assert!(generate(Lang::Curl, &text).ends_with("--data-raw 'it'\\''s'"));
    assert!(generate(Lang::JavaScript, &text).contains("  body: \"it's\","));
    let py = generate(Lang::Python, &text);
    assert!(py.contains("    data=\"it's\",") && py.contains("\"Content-Type\": \"text/plain\""), "{py}");
}

#[test]
fn the_languages_are_listed_in_tab_order() {
    let labels: Vec<&str> = Lang::ALL.iter().map(|l| l.label()).collect();
    assert_eq!(labels, ["cURL", "JavaScript", "Python", "Go", "Java", "C#"]);
    assert_eq!(generate(Lang::Go, &post()), generate_with(Lang::Go, &post(), None));
}

#[test]
fn go_is_a_whole_program() {
    assert_eq!(
        generate(Lang::Go, &get()),
        r#"package main

import (
	"fmt"
	"io"
	"log"
	"net/http"
)

func main() {
	req, err := http.NewRequest("GET", "http://127.0.0.1:4010/pets?status=available&limit=5", nil)
	if err != nil {
		log.Fatal(err)
	}
	req.Header.Add("Accept", "application/json")
	req.Header.Add("X-Api-Key", "k1")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer res.Body.Close()
	text, err := io.ReadAll(res.Body)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.StatusCode, string(text))
}"#
    );
    let json = generate(Lang::Go, &post());
    assert!(json.contains("\t\"strings\"\n"), "{json}");
    assert!(
            json.contains("http.NewRequest(\"POST\", \"http://127.0.0.1:4010/pets\", strings.NewReader(`{\n  \"name\": \"O'Brien\",\n"),
            "{json}"
        );
    assert!(json.contains("\treq.Header.Add(\"Authorization\", \"Bearer it's\")"), "{json}");
}

#[test]
fn java_is_a_class_with_main() {
    assert_eq!(
        generate(Lang::Java, &get()),
        r#"import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:4010/pets?status=available&limit=5"))
            .header("Accept", "application/json")
            .header("X-Api-Key", "k1")
            .GET()
            .build();
        HttpResponse<String> response = HttpClient.newHttpClient()
            .send(request, HttpResponse.BodyHandlers.ofString());
        System.out.println(response.statusCode() + " " + response.body());
    }
}"#
    );
    let json = generate(Lang::Java, &post());
    assert!(
        json.contains(
            "        String body = \"{\\n\"\n            + \"  \\\"name\\\": \\\"O'Brien\\\",\\n\"\n"
        ),
        "{json}"
    );
    assert!(json.contains("            .POST(HttpRequest.BodyPublishers.ofString(body))\n"), "{json}");
    let host = Request::new("GET", "http://x/").header("host", "y");
    assert!(generate(Lang::Java, &host).contains("            // HttpClient sets Host itself.\n"));
}

#[test]
fn csharp_is_top_level_statements() {
    assert_eq!(
        generate(Lang::CSharp, &get()),
        r#"using System;
using System.Net.Http;

using var client = new HttpClient();
using var request = new HttpRequestMessage(HttpMethod.Get, "http://127.0.0.1:4010/pets?status=available&limit=5");
request.Headers.TryAddWithoutValidation("Accept", "application/json");
request.Headers.TryAddWithoutValidation("X-Api-Key", "k1");
using var response = await client.SendAsync(request);
Console.WriteLine($"{(int)response.StatusCode} {await response.Content.ReadAsStringAsync()}");"#
    );
    let json = generate(Lang::CSharp, &post());
    assert!(json.contains("using System.Text;\n"), "{json}");
    assert!(
            json.contains("request.Content = new ByteArrayContent(Encoding.UTF8.GetBytes(\n    \"{\\n\"\n    + \"  \\\"name\\\": \\\"O'Brien\\\",\\n\""),
            "{json}"
        );
    // Content-Type is a content header in .NET: it goes on the content, after it is set.
    assert!(
            json.ends_with("}\"));\nrequest.Content.Headers.TryAddWithoutValidation(\"Content-Type\", \"application/json\");\nusing var response = await client.SendAsync(request);\nConsole.WriteLine($\"{(int)response.StatusCode} {await response.Content.ReadAsStringAsync()}\");"),
            "{json}"
        );
    assert!(json.contains("request.Headers.TryAddWithoutValidation(\"Authorization\", \"Bearer it's\");"));
}

#[test]
fn get_with_headers_and_query_in_every_language() {
    let url = "http://127.0.0.1:4010/pets?status=available&limit=5";
    assert_eq!(
        generate(Lang::Curl, &get()),
        format!("curl -i '{url}' \\\n  -H 'Accept: application/json' \\\n  -H 'X-Api-Key: k1'")
    );
    let js = generate(Lang::JavaScript, &get());
    assert!(
        js.starts_with(&format!(
            "const response = await fetch(\"{url}\", {{\n  headers: {{\n    \"Accept\": \"application/json\","
        )),
        "{js}"
    );
    assert!(!js.contains("method"), "{js}");
    let py = generate(Lang::Python, &get());
    assert!(
        py.contains(&format!(
            "    \"GET\",\n    \"{url}\",\n    headers={{\n        \"Accept\": \"application/json\","
        )),
        "{py}"
    );
}

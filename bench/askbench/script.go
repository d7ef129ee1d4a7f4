package main

import (
	"fmt"
	"strings"
)

// The four complete corpus packages the script is written against
// (<corpus>/derived/graph_packages/<framework>/<snapshot>, the corpus located by internal/corpus).
const (
	ghanaFW    = "ghana-nacca-primary-mathematics-basic-4-6"
	ghanaSnap  = ghanaFW + "@2019+43d21a2cb010"
	cbseFW     = "india-cbse-science-learning-framework-classes-9-10"
	cbseSnap   = cbseFW + "@undated+92cd5087f7e0"
	nigeriaFW  = "nigeria-nerdc-mathematics-primary-1-3"
	nigeriaLC  = nigeriaFW + "@undated+3f35e11c6624" // standards + learning components
	nigeriaStd = nigeriaFW + "@undated+530f13dcf3c3" // standards only
)

// Attribution statements of the packages' rights, which every answer
// reproduces.
const (
	attrGhana   = "Source curriculum published by NaCCA, Ministry of Education, Republic of Ghana, September 2019."
	attrCBSE    = "Learning Framework - Science, Central Board of Secondary Education (CBSE), developed in collaboration with Azim Premji University."
	attrNigeria = "Source curriculum published by the Nigerian Educational Research and Development Council (NERDC) as part of the revised 9-Year Basic Education Mathematics Curriculum."
)

// corpusSnapshots are the package directories the benchmark builds.
var corpusSnapshots = []string{ghanaSnap, cbseSnap, nigeriaLC, nigeriaStd}

// script is the replayed conversation: sixteen questions over the four packages,
// asked in one session, each answered with the calls a careful model makes
// after reading the tool list, working from the text of each result alone.
// Values learnt from a result (a snapshot ID, a node ID, a code) are
// extracted from its text; framework IDs and grade labels are the ones the
// first list_frameworks shows. A step with Needed is a call today's text
// forces: a better answer from an earlier call would remove it.
var script = []question{
	{
		ID: "q1", Asker: "officer",
		Text: "Which curricula can you answer from? We have two current Nigeria Primary 1–3 mathematics snapshots: what differs between them, and which should our teachers use?",
		Steps: []step{
			{Tool: "list_frameworks", Args: `{"request":{}}`, Extract: []extract{
				{"ghana", `(ghana-nacca-primary-mathematics-basic-4-6@\S+)`},
				{"cbse", `(india-cbse-science-learning-framework-classes-9-10@\S+)`},
				{"nigeria_lc", `(nigeria-nerdc-mathematics-primary-1-3@\S+)\n(?:[^\n]*\n){0,3}?\s*contains [^\n]*learning_components`},
				{"nigeria_std", `(nigeria-nerdc-mathematics-primary-1-3@\S+)\n(?:[^\n]*\n){0,3}?\s*contains academic_standards:`},
			}},
			{Tool: "get_framework_statistics", Args: `{"request":{"frameworkId":"nigeria-nerdc-mathematics-primary-1-3","snapshotId":"{{nigeria_lc}}"}}`,
				Needed: "needed because the list compares the two snapshots by contents and totals only; whether their 242 standards are the same records is not said, so the per-grade and per-type counts are compared instead"},
			{Tool: "get_framework_statistics", Args: `{"request":{"frameworkId":"nigeria-nerdc-mathematics-primary-1-3","snapshotId":"{{nigeria_std}}"}}`,
				Needed: "needed because the list compares the two snapshots by contents and totals only (the second half of that comparison)"},
		},
		Facts: []fact{
			has("the four snapshots served", ghanaSnap, cbseSnap, nigeriaLC, nigeriaStd),
			re("Nigeria has two current snapshots (pin one)", `(?i)(2|two) current snapshots`),
			has("+3f35… adds 186 learning components", "186 learning components"),
			has("… with 204 supports edges", "204 supports"),
			has("both hold 242 standards", "242 standards"),
			re("the 242 standards are the same records in both", `(?i)(same|identical)[^\n]{0,40}(standards|records|node IDs)`),
			has("which is newer: packages created 2026-09-06 (+3f35…) and 2026-07-22 (+530f…)", "2026-09-06", "2026-07-22"),
			has("attribution (Nigeria)", attrNigeria),
		},
	},
	{
		ID: "q2", Asker: "teacher",
		Text: "I teach Primary 1 in Nigeria. Which objectives cover addition?",
		Steps: []step{
			// Each topic hit lists its objectives (by hit number where they
			// are hits too): no get_standard_context of the two topics.
			{Tool: "search_standards", Args: `{"request":{"mode":"text","query":"addition","match":{"matchMode":"stems","operator":"all"},"snapshotIds":["{{nigeria_lc}}"],"localGradeLabels":["PRIMARY ONE"],"includeGroupings":true}}`},
		},
		Facts: []fact{
			has("objective: add two whole numbers from 1 to 3", "add two whole numbers from 1 to 3 with sum less than 5"),
			has("objective: add two or three whole numbers from 1 to 8", "add two or three whole numbers from 1 to 8 with sum not up to 10"),
			has("objective: add two or three numbers from 0 to 9", "add two or three numbers from 0 to 9 with sum not greater than 18"),
			has("objective: add 2-digit whole numbers", "add 2-digit whole numbers with sum not greater than 40 without exchanging or renaming"),
			has("objective: cross check numeracy in addition", "cross check numeracy in addition is readable"),
			has("objective: cross-check the correctness of addition", "cross-check the correctness of addition in everyday life"),
			has("objective of topic 3. Addition without the word: find missing numbers", "find missing numbers in a statement"),
			has("related objective under Money: add coins", "add coins to obtain sums not exceeding 25k"),
			has("topics 1. and 3. Addition under THEME: BASIC OPERATIONS", "1. Addition", "3. Addition", "THEME: BASIC OPERATIONS"),
			has("grade label PRIMARY ONE", "PRIMARY ONE"),
			standardURI("URI of \"add two whole numbers from 1 to 3\"", nigeriaLC, "8523c2b1-b5a6-5a6e-8189-a12c6931f6f7"),
			has("attribution (Nigeria)", attrNigeria),
		},
	},
	{
		ID: "q3", Asker: "teacher",
		Text: "Which Primary 2 standards in Nigeria deal with fractions?",
		Steps: []step{
			{Tool: "search_standards", Args: `{"request":{"mode":"text","query":"fractions","match":{"matchMode":"stems","operator":"all"},"snapshotIds":["{{nigeria_lc}}"],"localGradeLabels":["PRIMARY TWO"]}}`,
				Extract: []extract{{"p2_fractions", `"2\. Fractions" \((<id>)\)`}}},
			// The arguments the zero-match hint of the search proposes.
			{Tool: "get_standard_context", Args: `{"request":{"childDepth":3,"frameworkId":"nigeria-nerdc-mathematics-primary-1-3","includeDescendants":true,"nodeId":"{{p2_fractions}}","snapshotId":"{{nigeria_lc}}"}}`,
				Needed: "needed because the Primary 2 objectives under the topic \"2. Fractions\" do not use the word and the search finds no hit: its suggestion names the topic and the call that lists its objectives (a grouping hit would list them; a suggestion does not)"},
		},
		Facts: []fact{
			has("objective: divide into two and four equal parts", "divide a collection of concrete objects into two equal parts and four equal parts"),
			has("objective: obtain ¾ of a concrete object", "obtain ¾ of a concrete object"),
			has("topic 2. Fractions under SUB-THEME: Whole Number", "2. Fractions", "SUB-THEME: Whole Number"),
			has("grade label PRIMARY TWO", "PRIMARY TWO"),
			standardURI("URI of \"divide … equal parts\"", nigeriaLC, "1eed2e61-ce25-5262-84fd-74b95e75b5cf"),
			standardURI("URI of \"obtain ¾ …\"", nigeriaLC, "a9da30c2-f304-5008-adfe-67d56d2194e0"),
			has("attribution (Nigeria)", attrNigeria),
		},
	},
	{
		ID: "q4", Asker: "teacher",
		Text: "What learning components support Nigeria's Primary 2 objective \"identify a square, a rectangle, a circle and a triangle\"? Do any of them carry over from Primary 1?",
		Steps: []step{
			{Tool: "search_standards", Args: `{"request":{"mode":"text","query":"identify a square, a rectangle, a circle and a triangle","match":{"matchMode":"exact_phrase"},"snapshotIds":["{{nigeria_lc}}"],"localGradeLabels":["PRIMARY TWO"]}}`,
				Extract: []extract{{"p2_shapes", `(<id>) \| [^\n]*\| PRIMARY TWO\n\s*Pupils should be able to: 1\. identify a square`}}},
			// "also supports" names each other standard with its grade label
			// and statement: no get_standard of the Primary 1 objective.
			{Tool: "get_learning_components_for_standard", Args: `{"request":{"frameworkId":"nigeria-nerdc-mathematics-primary-1-3","snapshotId":"{{nigeria_lc}}","identifier":{"identifierType":"node_id","nodeId":"{{p2_shapes}}"}}}`},
		},
		Facts: []fact{
			has("the four components", "Identify a square", "Identify a rectangle", "Identify a circle", "Identify a triangle"),
			has("the generator's confidence", "confidence 0.97"),
			has("components are generated, not curriculum-authored", "not curriculum-authored"),
			componentURI("URI of the component \"Identify a square\"", nigeriaLC, "6eaace05-8bf1-5c7c-9d06-865012265ae5"),
			standardURI("URI of the Primary 2 objective", nigeriaLC, "25f29d93-332b-5c2d-9083-a4476182f04e"),
			has("the Primary 1 objective they also support", "identify a Square, a Rectangle and a Circle"),
			has("its grade label PRIMARY ONE", "PRIMARY ONE"),
			standardURI("URI of the Primary 1 objective", nigeriaLC, "0a31b8f7-ec0b-5b70-8424-a7611b9aece8"),
			has("attribution (Nigeria)", attrNigeria),
		},
	},
	{
		ID: "q5", Asker: "teacher",
		Text: "Where does Ghana's code B4.1.1.1.1 sit in the curriculum, and what are its sibling indicators?",
		Steps: []step{
			{Tool: "search_standards", Args: `{"request":{"mode":"code_exact","query":"B4.1.1.1.1","frameworkIds":["ghana-nacca-primary-mathematics-basic-4-6"]}}`,
				Extract: []extract{{"b4_parent_code", `in: [^\n]*> (B4(?:\.\d+)+) `}}},
			{Tool: "search_standards", Args: `{"request":{"mode":"code_prefix","query":"{{b4_parent_code}}","frameworkIds":["ghana-nacca-primary-mathematics-basic-4-6"]}}`,
				Needed: "needed because the hit names its parent (code, type and ID) but not the parent's other children; the parent's code searched as a prefix lists them with their statements"},
		},
		Facts: []fact{
			has("its statement", "Model number quantities, place value for multi-digit using graph sheets or multi-base materials up to 100,000"),
			has("its path: Strand 1: NUMBER > Sub-strand 1", "Strand 1: NUMBER", "Sub-strand 1: Counting, Representation & Cardinality"),
			has("grade label BASIC 4", "BASIC 4"),
			has("its parent content standard B4.1.1.1, in full", "B4.1.1.1", "Demonstrate an understanding of quantities and place value for multi-digit whole numerals up to 100,000."),
			has("sibling codes B4.1.1.1.2–6", "B4.1.1.1.2", "B4.1.1.1.3", "B4.1.1.1.4", "B4.1.1.1.5", "B4.1.1.1.6"),
			has("sibling statements", "Read and write numbers in figures and in words up 100,000", "Skip count forwards and backwards in 50s and 100s up to and from 10000"),
			standardURI("URI of B4.1.1.1.1", ghanaSnap, "55a78324-ee02-50ab-b97e-a51584ed73b7"),
			has("attribution (Ghana)", attrGhana),
		},
	},
	{
		ID: "q6", Asker: "teacher",
		Text: "Give me the grade 5 (Basic 5) Ghana standards about fractions, with their codes.",
		Steps: []step{
			{Tool: "search_standards", Args: `{"request":{"mode":"text","query":"fractions","match":{"matchMode":"stems","operator":"all"},"frameworkIds":["ghana-nacca-primary-mathematics-basic-4-6"],"localGradeLabels":["BASIC 5"]}}`},
		},
		Facts: []fact{
			has("content standard B5.1.3.1", "B5.1.3.1", "Demonstrate understanding of strategies for comparing, adding, subtracting and multiplying fractions"),
			has("its indicators B5.1.3.1.1–6", "B5.1.3.1.1", "B5.1.3.1.2", "B5.1.3.1.3", "B5.1.3.1.4", "B5.1.3.1.5", "B5.1.3.1.6"),
			has("indicator statements", "Determine equivalent fractions of given fractions", "Compare and order fractions"),
			has("decimal fractions: B5.1.4.1.2", "B5.1.4.1.2", "Compare and order decimal fractions and a mixture of common and decimal fractions"),
			re("B5.1.4.1's real parent could not be resolved (it hangs from the root)", `(?i)unresolved|could not be resolved`),
			has("sub-strand: Number: Fractions", "Sub-Strand 3: Number: Fractions"),
			has("grade label BASIC 5", "BASIC 5"),
			standardURI("URI of B5.1.3.1.2", ghanaSnap, "618e0880-7cc4-5f05-a1e1-20aba7b0127a"),
			has("attribution (Ghana)", attrGhana),
		},
	},
	{
		ID: "q7", Asker: "officer",
		Text: "Which CBSE science standards sit under two parents? For instance, where is the Class X learning outcome CLO7 filed?",
		Steps: []step{
			{Tool: "get_framework_statistics", Args: `{"request":{"frameworkId":"india-cbse-science-learning-framework-classes-9-10"}}`},
			{Tool: "search_standards", Args: `{"request":{"mode":"code_exact","query":"CLO7","frameworkIds":["india-cbse-science-learning-framework-classes-9-10"],"localGradeLabels":["Class X"]}}`,
				// The hit shows the path through each parent, with its type
				// and ID: no get_standard_context.
				Extract: []extract{{"clo7", `CLO7 \| (<id>) \| [^\n]*\| Class X`}}},
		},
		Facts: []fact{
			re("235 items have more than one parent", `235[^\n]{0,40}(more than one parent|multi-parent|two parents)`),
			re("they are the Content Domain Specific Learning Outcomes (each under a Chapter and an NCERT Learning Outcome)",
				`(?i)(more than one parent|multi-parent|two parents)[^\n]*Content Domain Specific Learning Outcome|Content Domain Specific Learning Outcome[^\n]*(more than one parent|multi-parent|two parents)`),
			has("CLO7's statement", "Classifies metals and non-metals based on their chemical properties; ionic, covalent and metallic bond and relate this to physical and chemical properties."),
			has("first parent: Chapter 3 – Metals and Non-metals", "Chapter 3 – Metals and Non-metals"),
			re("second parent: NCERT learning outcome LO2", `\bLO2\b[^\n]*NCERT Learning Outcome|NCERT Learning Outcome[^\n]*\bLO2\b`),
			has("grade label Class X", "Class X"),
			standardURI("URI of Class X CLO7", cbseSnap, "2a1d063b-54f7-521c-9c96-6c9e040cd928"),
			has("attribution (CBSE)", attrCBSE),
		},
	},
	{
		ID: "q8", Asker: "officer",
		Text: "Compare how Ghana, CBSE and Nigeria treat measurement.",
		Steps: []step{
			{Tool: "compare_framework_evidence", Args: `{"request":{"frameworkIds":["ghana-nacca-primary-mathematics-basic-4-6","india-cbse-science-learning-framework-classes-9-10","nigeria-nerdc-mathematics-primary-1-3"],"snapshotIds":["{{nigeria_lc}}"],"mode":"text","query":"measurement","match":{"matchMode":"stems","operator":"all"}}}`},
		},
		Facts: []fact{
			has("Ghana: strand GEOMETRY AND MEASUREMENT", "Strand 3: GEOMETRY AND MEASUREMENT"),
			has("Ghana example: B4.3.3.1.2 perimeter", "B4.3.3.1.2", "Measure and record perimeter for regular and irregular shapes in cm and m."),
			has("CBSE: LO10 measures physical quantities", "LO10", "Measures physical quantities using appropriate apparatus"),
			has("Nigeria: MENSURATION AND GEOMETRY, length in natural units", "MENSURATION AND GEOMETRY", "measure length and distance in their natural units"),
			has("grade labels of each", "BASIC 4", "Class X", "PRIMARY ONE"),
			re("matches are not official equivalences", `(?i)not (establish )?official equivalence`),
			has("each section's URI to cite", standardTemplate(ghanaSnap), standardTemplate(cbseSnap), standardTemplate(nigeriaLC)),
			has("each package's attribution", attrGhana, attrCBSE, attrNigeria),
		},
	},
	{
		ID: "q9", Asker: "teacher",
		Text: "Which Nigeria learning components (skills) involve money, and which standards do they support?",
		Steps: []step{
			// Each hit names the standards it supports with grade label and
			// statement: no search_standards for them.
			{Tool: "search_learning_components", Args: `{"request":{"mode":"learning_component_text","query":"money","match":{"matchMode":"stems","operator":"all"},"snapshotIds":["{{nigeria_lc}}"]}}`},
		},
		Facts: []fact{
			has("the components", "Perform simple multiplication involving money with product not exceeding ₦20", "Shop effectively with money not greater than ₦20 using the idea of subtraction",
				"Shop with money not greater than ₦20", "Enumerate the uses of money", "Shop effectively with money not greater than ₦20 using the idea of addition", "Change money up to ₦20 into small units"),
			has("the standards they support", "enumerate the uses of money", "change money not exceeding ₦20 into smaller units", "shop effectively with money not greater than ₦20 using the idea of addition and subtraction",
				"perform simple multiplication involving money with product not exceeding ₦20", "change money up to ₦20 into small units and shop with money not greater than ₦20"),
			has("grade labels PRIMARY TWO and PRIMARY THREE", "PRIMARY TWO", "PRIMARY THREE"),
			has("components are generated, not curriculum-authored", "not curriculum-authored"),
			componentURI("URI of the component \"Enumerate the uses of money\"", nigeriaLC, "b95a8f68-8d2d-501e-aacd-3d7f4e483ab8"),
			standardURI("URI of \"enumerate the uses of money\"", nigeriaLC, "5be57d2c-863d-5a74-8389-5aa7efc10739"),
			has("attribution (Nigeria)", attrNigeria),
		},
	},
	{
		ID: "q10", Asker: "teacher",
		Text: "What are the learning outcomes and indicators of CBSE Class IX Chapter 13, \"Why do we fall ill?\"",
		Steps: []step{
			{Tool: "search_standards", Args: `{"request":{"mode":"text","query":"why do we fall ill","match":{"matchMode":"exact_phrase"},"frameworkIds":["india-cbse-science-learning-framework-classes-9-10"],"includeGroupings":true}}`,
				Extract: []extract{{"ch13", `(<id>) \| [^\n]*\n\s*Chapter 13 – Why do we fall ill\?`}}},
			// The arguments of the tool description's example.
			{Tool: "get_standard_context", Args: `{"request":{"frameworkId":"india-cbse-science-learning-framework-classes-9-10","nodeId":"{{ch13}}","includeDescendants":true,"childDepth":2}}`},
		},
		Facts: []fact{
			has("the chapter and where it sits", "Chapter 13 – Why do we fall ill?", "World of living", "Class IX"),
			has("its 14 learning outcomes CLO87–CLO100", "CLO87", "CLO88", "CLO89", "CLO90", "CLO91", "CLO92", "CLO93", "CLO94", "CLO95", "CLO96", "CLO97", "CLO98", "CLO99", "CLO100"),
			has("their 21 indicators C210–C230", codes("C", 210, 230)...),
			has("statements", "Classifies and categorises diseases based on the causal organism.", "Discusses the benefits and risks of vaccination and the misinformation which exists about vaccination."),
			has("node IDs (codes repeat in this framework)", "525022ad-d730-5b3a-8605-834d6d6dcdfa"),
			standardURI("URI of the chapter", cbseSnap, "9f5005b1-2078-5a08-ae89-cf0c0ae37431"),
			has("attribution (CBSE)", attrCBSE),
		},
	},
	// q11–q16 ask what issue "Answers a model can trust" found costly: a
	// misspelt word, an exact code that only begins codes, a grade label
	// written out, whether a comparison shows everything, a standard under
	// two parents, and the order of equally ranked hits.
	{
		ID: "q11", Asker: "teacher",
		Text: "Which Primary 2 objectives in Nigeria deal with multiplcation?",
		Steps: []step{
			// The teacher's spelling, as typed.
			{Tool: "search_standards", Args: `{"request":{"mode":"text","query":"multiplcation","match":{"matchMode":"stems","operator":"all"},"snapshotIds":["{{nigeria_lc}}"],"localGradeLabels":["PRIMARY TWO"]}}`,
				Extract: []extract{{"spelt", `did you mean "([a-z]+)" for "multiplcation"`}}},
			{Tool: "search_standards", Args: `{"request":{"mode":"text","query":"{{spelt}}","match":{"matchMode":"stems","operator":"all"},"snapshotIds":["{{nigeria_lc}}"],"localGradeLabels":["PRIMARY TWO"]}}`,
				Needed: "needed because the word is misspelt: the first answer names the spelling the package uses, with its count, and this is its call"},
		},
		Facts: []fact{
			has("objective: multiply numbers using repeated additions", "multiply numbers using repeated additions"),
			has("objective: apply correctness in multiplications", "apply correctness in multiplications as important in everyday activities"),
			has("topic 3. Multiplication under BASIC OPERATIONS", "3. Multiplication", "THEME: BASIC OPERATIONS"),
			has("grade label PRIMARY TWO", "PRIMARY TWO"),
			standardURI("URI of \"multiply numbers using repeated additions\"", nigeriaLC, "d0cd9a59-89d9-5e69-9935-02a4237050a2"),
			has("attribution (Nigeria)", attrNigeria),
		},
	},
	{
		ID: "q12", Asker: "teacher",
		Text: "What does Ghana's B5.1.3 cover?",
		Steps: []step{
			{Tool: "search_standards", Args: `{"request":{"mode":"code_exact","query":"B5.1.3","frameworkIds":["ghana-nacca-primary-mathematics-basic-4-6"]}}`},
			{Tool: "search_standards", Args: `{"request":{"mode":"code_prefix","query":"B5.1.3","frameworkIds":["ghana-nacca-primary-mathematics-basic-4-6"]}}`,
				Needed: "needed because B5.1.3 is a sub-strand's position, not a standard's code: the first answer says 7 codes start with it and gives this call"},
		},
		Facts: []fact{
			has("content standard B5.1.3.1", "B5.1.3.1", "Demonstrate understanding of strategies for comparing, adding, subtracting and multiplying fractions"),
			has("its indicators B5.1.3.1.1–6", "B5.1.3.1.1", "B5.1.3.1.2", "B5.1.3.1.3", "B5.1.3.1.4", "B5.1.3.1.5", "B5.1.3.1.6"),
			has("sub-strand: Number: Fractions", "Sub-Strand 3: Number: Fractions"),
			standardURI("URI of B5.1.3.1", ghanaSnap, "1fad27cd-0a4d-5ca0-8a1c-367486bd5b2e"),
			has("attribution (Ghana)", attrGhana),
		},
	},
	{
		ID: "q13", Asker: "teacher",
		Text: "What do Ghana's Basic Five pupils learn about decimals?",
		Steps: []step{
			// The grade as the teacher says it.
			{Tool: "search_standards", Args: `{"request":{"mode":"text","query":"decimals","match":{"matchMode":"stems","operator":"all"},"frameworkIds":["ghana-nacca-primary-mathematics-basic-4-6"],"localGradeLabels":["Basic Five"]}}`,
				Extract: []extract{{"label", `"Basic Five" reads as "([^"]+)"`}}},
			{Tool: "search_standards", Args: `{"request":{"mode":"text","query":"decimals","match":{"matchMode":"stems","operator":"all"},"frameworkIds":["ghana-nacca-primary-mathematics-basic-4-6"],"localGradeLabels":["{{label}}"]}}`,
				Needed: "needed because the framework writes the grade BASIC 5: the first answer lists its labels, the one Basic Five reads as, and the count"},
		},
		Facts: []fact{
			has("content standard B5.1.4.1", "B5.1.4.1", "Demonstrate understanding of decimals fractions and strategies for comparing, adding and subtracting decimal fraction"),
			has("indicators", "Round decimals to the nearest tenth and hundredth", "Describe and represent decimals (up to the thousandths)"),
			re("B5.1.4.1's parent could not be resolved", `(?i)could not be resolved`),
			has("grade label BASIC 5", "BASIC 5"),
			standardURI("URI of B5.1.4.1.3", ghanaSnap, "f6425088-33c9-50be-8858-f117da8a765b"),
			has("attribution (Ghana)", attrGhana),
		},
	},
	{
		ID: "q14", Asker: "officer",
		Text: "Show me three standards on measurement from Ghana and from Nigeria: is that all they have?",
		Steps: []step{
			{Tool: "compare_framework_evidence", Args: `{"request":{"frameworkIds":["ghana-nacca-primary-mathematics-basic-4-6","nigeria-nerdc-mathematics-primary-1-3"],"snapshotIds":["{{nigeria_lc}}"],"mode":"text","query":"measurement","match":{"matchMode":"stems","operator":"all"},"maxMatchesPerFramework":3}}`},
		},
		Facts: []fact{
			has("Ghana: 3 of its 6 matches shown", "Matches: 3 of 6"),
			has("Nigeria: 3 of its 18", "Matches: 3 of 18"),
			has("the call for the rest", "More matches: search_standards"),
			has("each package's attribution", attrGhana, attrNigeria),
		},
	},
	{
		ID: "q15", Asker: "teacher",
		Text: "Where are CBSE's Class IX learning outcomes on force and the laws of motion filed?",
		Steps: []step{
			// Each hit shows the path through each of its parents.
			{Tool: "search_standards", Args: `{"request":{"mode":"text","query":"force laws motion","match":{"matchMode":"stems","operator":"all"},"frameworkIds":["india-cbse-science-learning-framework-classes-9-10"],"localGradeLabels":["Class IX"],"limit":3}}`},
		},
		Facts: []fact{
			has("CLO64's statement", "CLO64", "Calculates the unknown from the given data relevant to force and laws of motion."),
			has("first parent: Chapter 9 – Force & Laws of Motion", "Chapter 9 – Force & Laws of Motion"),
			re("second parent: NCERT learning outcome LO6", `\bLO6\b[^\n]*NCERT Learning Outcome`),
			has("the chapter's ID to open", "f9cb0ea8-1669-5acd-9905-91ea11ef9109"),
			standardURI("URI of CLO64", cbseSnap, "182450ad-f024-58a6-a027-5b48a08c6748"),
			has("attribution (CBSE)", attrCBSE),
		},
	},
	{
		ID: "q16", Asker: "teacher",
		Text: "List Ghana's Basic 5 fraction standards in the curriculum's order.",
		Steps: []step{
			{Tool: "search_standards", Args: `{"request":{"mode":"text","query":"fractions","match":{"matchMode":"stems","operator":"all"},"frameworkIds":["ghana-nacca-primary-mathematics-basic-4-6"],"localGradeLabels":["BASIC 5"]}}`},
		},
		Facts: []fact{
			re("the content standard before its indicators, indicators in order", `(?s)B5\.1\.3\.1 \|.*B5\.1\.3\.1\.1 \|.*B5\.1\.3\.1\.2 \|.*B5\.1\.3\.1\.6 \|.*B5\.1\.4\.1 \|`),
			re("the order is said", `ties in curriculum order`),
			has("attribution (Ghana)", attrGhana),
		},
	},
}

// has is a fact found when every string occurs in the text.
func has(name string, all ...string) fact { return fact{Name: name, Any: [][]string{all}} }

// re is a fact found when the regular expression matches the text.
func re(name, pattern string) fact { return fact{Name: name, Re: pattern} }

// standardURI is found when the standard's kgfegmcp:// URI is in the text,
// or the pieces to build it: the snapshot's URI template and the node ID.
func standardURI(name, snap, id string) fact {
	t := standardTemplate(snap)
	return fact{Name: name, Any: [][]string{{strings.Replace(t, "{nodeId}", id, 1)}, {t, id}}}
}

// componentURI is standardURI for a learning component.
func componentURI(name, snap, id string) fact {
	t := strings.Replace(standardTemplate(snap), "/standard/", "/learning-component/", 1)
	return fact{Name: name, Any: [][]string{{strings.Replace(t, "{nodeId}", id, 1)}, {t, id}}}
}

// standardTemplate is the URI template of a snapshot's standards, with the
// snapshot ID percent-encoded as the server writes it.
func standardTemplate(snap string) string {
	fw, _, _ := strings.Cut(snap, "@")
	return "kgfegmcp://framework/" + fw + "/snapshot/" + escape(snap) + "/standard/{nodeId}"
}

// escape percent-encodes every byte but the unreserved characters of RFC 3986.
func escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// codes returns prefix+n for n from first to last.
func codes(prefix string, first, last int) []string {
	var out []string
	for n := first; n <= last; n++ {
		out = append(out, fmt.Sprintf("%s%d", prefix, n))
	}
	return out
}

//! Every bundled map opened in the editor and written back by it (`editor::write`) is the same
//! scenario: `volley check` accepts the file, its header comment is still at the top, and it
//! starts, and plays, the same battle as the map itself (the same state hash once the content
//! hash, which pins the file's bytes, is set alike; the same events).

use super::common::maps;
use volley::agents;
use volley::battle::Battle;
use volley::data::check::check_file;
use volley::editor::Doc;
use volley::editor::write::write_scenario;

/// The comment lines before the opening `(`.
fn header(text: &str) -> Vec<&str> {
    text.lines().take_while(|l| !l.trim_start().starts_with('(')).collect()
}

/// Both battles stepped with the same random agents, action by action: the same actions, the
/// same events, the same state.
fn play_alike(mut a: Battle, mut b: Battle, seed: u64, actions: usize, name: &str) {
    let mut agents = [
        agents::by_name("random", seed, 0).unwrap(),
        agents::by_name("random", seed, 1).unwrap(),
    ];
    for k in 0..actions {
        if a.is_over() {
            assert!(b.is_over(), "{name}");
            return;
        }
        let legal = a.legal_actions();
        assert_eq!(legal, b.legal_actions(), "{name}: action {k}");
        let action = legal[agents[a.actor()].choose(&a, &legal)].clone();
        let ea = a.step(&action).unwrap_or_else(|r| panic!("{name}: {r}")).events;
        let eb = b.step(&action).unwrap_or_else(|r| panic!("{name}: {r}")).events;
        assert_eq!(ea, eb, "{name}: action {k}");
        assert_eq!(a.state_hash(), b.state_hash(), "{name}: action {k}");
    }
}

#[test]
fn every_map_written_by_the_editor_is_checked_and_starts_and_plays_the_same_battle() {
    let dir = std::env::temp_dir().join(format!("volley-editor-roundtrip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let all = maps();
    assert!(all.len() >= 5);
    for p in &all {
        let name = p.display().to_string();
        let doc = Doc::open(p).unwrap_or_else(|e| panic!("{e}"));
        let original = doc.original.clone().unwrap();
        let w = write_scenario(&doc.scenario, doc.original.as_deref());
        let out = dir.join(p.file_name().unwrap());
        std::fs::write(&out, &w.text).unwrap();
        let r = check_file(&out).unwrap_or_else(|e| panic!("{name} rewritten: {e}"));
        assert_eq!(
            (r.kind.as_str(), r.title.as_ref()),
            ("scenario", Some(&doc.scenario.title))
        );
        let head = header(&original);
        assert!(!head.is_empty(), "{name} has a header comment");
        assert_eq!(header(&w.text), head, "{name}");
        for seed in [3, 20] {
            let (a, ea) = volley::load_battle(p, seed).unwrap_or_else(|e| panic!("{e}"));
            let (mut b, eb) = volley::load_battle(&out, seed).unwrap_or_else(|e| panic!("{e}"));
            if w.text != original {
                assert_ne!(a.scenario_hash, b.scenario_hash, "{name}: the hash pins the bytes");
            }
            b.arranging().scenario_hash = a.scenario_hash;
            assert_eq!(a.state_hash(), b.state_hash(), "{name} seed {seed}");
            assert_eq!(ea, eb, "{name} seed {seed}");
            play_alike(a, b, seed, 300, &name);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

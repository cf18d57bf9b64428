//! HELP [topic].

/// The help text for `topic` (the topic list without one); `Err` with the
/// message for standard error when there is no such topic.
pub fn help(topic: Option<&str>) -> Result<String, String> {
    match topic {
        None => Ok(String::new()),
        Some(topic) => Err(format!("*** No help on {topic}\n")),
    }
}

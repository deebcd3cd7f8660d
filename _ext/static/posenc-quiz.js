// "Check your understanding" (_ext/quiz.py): pressing an option says at
// once whether it is right and shows why, in the question's live region.
// The answer key of the instructor section opens every answer to print.
(function () {
  "use strict";
  function choose(button) {
    var option = button.closest(".quiz-option");
    var quiz = option.closest(".posenc-quiz");
    var right = option.dataset.verdict === "right";
    quiz.querySelectorAll(".quiz-option").forEach(function (other) {
      var pressed = other === option;
      other.querySelector(".quiz-choice")
        .setAttribute("aria-pressed", pressed ? "true" : "false");
      other.classList.toggle("quiz-picked", pressed);
      other.querySelector(".quiz-explanation").hidden = true;
    });
    option.classList.add(right ? "quiz-right" : "quiz-wrong");
    option.querySelector(".quiz-explanation").hidden = false;
    var feedback = quiz.querySelector(".quiz-feedback");
    feedback.className = "quiz-feedback " +
      (right ? "quiz-feedback-right" : "quiz-feedback-wrong");
    feedback.textContent = right
      ? "Right: option " + option.dataset.letter + ". See why below it."
      : "Not quite: option " + option.dataset.letter +
        " is not right. See why below it, then try another.";
  }
  // The instructor's answer key prints with every answer shown.
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details.quiz-key-answer")
      .forEach(function (answer) { answer.open = true; });
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".quiz-choice");
    if (button) choose(button);
  });
})();
